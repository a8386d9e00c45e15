import Foundation
import StreamLensOptions
import Testing

/// The option schema itself: its reference page is current, its keys form the pipeline file's sections, and its
/// checks say the same words wherever a value is given. The places that use it are checked beside them:
/// `CommandLineSchemaTests` and `PipelineFileSchemaTests` (StreamLensTests), `ElementSchemaTests` (the plugin).
struct OptionSchemaTests {
    /// The repository's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theReferencePageIsCurrent() throws {
        let page = Self.root.appendingPathComponent("docs/reference/options.md")
        let written = try String(contentsOf: page, encoding: .utf8)
        #expect(written == OptionSchema.referencePage(), "docs/reference/options.md is stale: run scripts/generate/generate-reference.sh")
    }

    @Test func theReferencePageListsEveryOptionInEveryPlace() {
        let page = OptionSchema.referencePage()
        for option in OptionSchema.all {
            if let flag = option.cliName { #expect(page.contains("`\(flag)`"), "\(flag)") }
            if let key = option.key { #expect(page.contains("`\(key)`"), "\(key)") }
            for property in option.properties { #expect(page.contains("`\(property.element) \(property.name)`")) }
        }
    }

    @Test func namesAreUniqueInEachPlace() {
        let flags = OptionSchema.all.compactMap(\.flag), keys = OptionSchema.all.compactMap(\.key)
        #expect(Set(flags).count == flags.count)
        #expect(Set(keys).count == keys.count)
        for element in OptionSchema.Element.all {
            let names = OptionSchema.properties(of: element).map(\.property.name)
            #expect(Set(names).count == names.count, "\(element)")
            #expect(!names.isEmpty, "\(element) has no properties")
        }
    }

    /// A property's type comes from the option's kind; numbers and booleans need a default GObject can hold.
    @Test func everyElementPropertyHasADefaultOfItsType() {
        for option in OptionSchema.all {
            for property in option.properties {
                let value = option.defaultValue(of: property)
                switch option.kind {
                case .int(let range):
                    guard case .int(let number)? = value else { Issue.record("\(property.name): no int default"); continue }
                    #expect(range.contains(number), "\(property.name)")
                case .number(let range):
                    guard case .number(let number)? = value else { Issue.record("\(property.name): no number default"); continue }
                    #expect(range.contains(number), "\(property.name)")
                case .bool, .flag:
                    guard case .bool? = value else { Issue.record("\(property.name): no boolean default"); continue }
                case .choice(let words):
                    guard case .text(let word)? = value else { Issue.record("\(property.name): no default word"); continue }
                    #expect(words.contains(word), "\(property.name)")
                case .text, .path, .section:
                    if let value, case .text = value {} else if value != nil { Issue.record("\(property.name): not text") }
                }
            }
        }
    }

    @Test(arguments: [
        // (section, the keys it allows, in the schema's order)
        ("", ["source", "pool", "analysis", "stages", "sink", "report"]),
        ("pool", ["size", "backpressure"]),
        ("source", ["input", "reconnect", "reconnect_max", "stall_timeout", "gps", "gps_offset"]),
        ("stages.speed_limits", ["region", "confidence", "expiry", "interval", "text_line_model"]),
    ])
    func sectionsHoldTheKeysTheSchemaNames(section: String, keys: [String]) {
        #expect(OptionSchema.keys(under: section) == keys)
    }

    @Test func theStagesSectionHoldsEveryStage() {
        #expect(Set(OptionSchema.keys(under: "stages"))
            == ["frame_stamp", "detector", "speed_limits", "annotations", "overlays", "overlay_cache", "privacy"])
    }

    @Test(arguments: [
        // (option, value, the problem in words; nil: allowed)
        (OptionSchema.poolSize, "0", "0 is out of range; allowed 1…64"),
        (OptionSchema.poolSize, "64", nil),
        (OptionSchema.confidence, "1.5", "1.5 is out of range; allowed 0…1"),
        (OptionSchema.detectorInterval, "-1", "-1.0 is out of range; allowed 0…3600 s"),
        (OptionSchema.signInterval, "0.08", nil),
        (OptionSchema.reconnectMax, "-1", "-1 is out of range; allowed 0…1000000"),
        (OptionSchema.syncAnalysis, "always", "'always' is not allowed; use one of: auto, on, off"),
        (OptionSchema.report, " ", "is empty; give a file name"),
        (OptionSchema.detector, "", "is empty; give hog | yolov8n | cascade:NAME|PATH | onnx:PATH | off"),
    ] as [(OptionSpec, String, String?)])
    func valuesAreCheckedInTheSameWordsEverywhere(option: OptionSpec, value: String, problem: String?) {
        let found: String? = switch option.kind {
        case .int: option.problem(with: Int(value)!)
        case .number: option.problem(with: Double(value)!)
        default: option.problem(with: value)
        }
        #expect(found == problem)
    }

    @Test func aNonFiniteNumberIsOutOfRange() {
        #expect(OptionSchema.shutdownGrace.problem(with: .infinity) == "inf is out of range; allowed 0…3600 s")
        #expect(OptionSchema.shutdownGrace.problem(with: .nan) != nil)
    }
}
