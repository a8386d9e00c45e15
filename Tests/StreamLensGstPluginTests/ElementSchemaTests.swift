import Foundation
import StreamLensOptions
import Testing

/// Every element property is the option schema's: the same name, type, range and default as the command line and
/// the pipeline file (read back from GStreamer itself, through Python's GObject introspection), and no element has
/// a property the schema does not declare.
@Suite(.serialized) struct ElementSchemaTests {
    @Test func everyPropertyHasTheSchemasTypeRangeAndDefault() async throws {
        try PluginHarness.requirePlugin()
        let script = """
            import gi, json
            gi.require_version("Gst", "1.0")
            from gi.repository import Gst
            Gst.init(None)
            found = {}
            for name in \(OptionSchema.Element.all):
                element = Gst.ElementFactory.make(name, None)
                properties = {}
                for spec in element.list_properties():
                    # GstObject's name and parent, GstBaseTransform's qos: not StreamLens's.
                    if spec.name in ("name", "parent", "qos"):
                        continue
                    entry = {"type": spec.value_type.name, "default": spec.default_value}
                    if hasattr(spec, "minimum"):
                        entry["minimum"] = spec.minimum
                        entry["maximum"] = spec.maximum
                    properties[spec.name] = entry
                found[name] = properties
            print(json.dumps(found))
            """
        let result = try await PluginHarness.run(PluginHarness.python, ["-c", script])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let found = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: [String: [String: Any]]])
        for element in OptionSchema.Element.all {
            let properties = try #require(found[element], "\(element) was not created")
            let declared = OptionSchema.properties(of: element)
            #expect(Set(properties.keys) == Set(declared.map(\.property.name)), "\(element): \(properties.keys.sorted())")
            for (option, property) in declared {
                let entry = try #require(properties[property.name], "\(element) \(property.name)")
                let label = "\(element) \(property.name)"
                let defaultValue = option.defaultValue(of: property)
                switch option.kind {
                case .int(let range):
                    #expect(entry["type"] as? String == "gint", "\(label)")
                    #expect(entry["minimum"] as? Int == range.lowerBound && entry["maximum"] as? Int == range.upperBound, "\(label)")
                    #expect(defaultValue == .int(entry["default"] as? Int ?? .min), "\(label): \(entry)")
                case .number(let range):
                    #expect(entry["type"] as? String == "gdouble", "\(label)")
                    #expect(entry["minimum"] as? Double == range.lowerBound && entry["maximum"] as? Double == range.upperBound,
                            "\(label): \(entry)")
                    #expect(defaultValue == .number(entry["default"] as? Double ?? .nan), "\(label): \(entry)")
                case .bool, .flag:
                    #expect(entry["type"] as? String == "gboolean", "\(label)")
                    #expect(defaultValue == .bool(entry["default"] as? Bool ?? false) , "\(label): \(entry)")
                case .choice, .text, .path, .section:
                    #expect(entry["type"] as? String == "gchararray", "\(label)")
                    if case .text(let text)? = defaultValue {
                        #expect(entry["default"] as? String == text, "\(label): \(entry)")
                    } else {
                        #expect(entry["default"] is NSNull || entry["default"] == nil, "\(label): \(entry)")
                    }
                }
            }
        }
    }

    /// `sync-analysis` is a word, like the command line's: one that is not a value stops the element at start with
    /// one line naming the property and its values.
    @Test func aSyncAnalysisThatIsNotAValueFailsAtStart() async throws {
        try PluginHarness.requirePlugin()
        let result = try await PluginHarness.launch(
            "videotestsrc num-buffers=2 ! video/x-raw,format=I420,width=64,height=48 ! streamlenssigns sync-analysis=true ! fakesink")
        #expect(result.status != 0)
        #expect(result.standardError.contains("property 'sync-analysis' cannot be 'true'") &&
                result.standardError.contains("use auto, on, off"), "\(result.standardError)")
    }

    /// `auto` waits on a file (every due frame analysed, none skipped) and not on a live source (a busy detector
    /// skips), as the command line does; the element decides at the first buffer with a latency query.
    @Test func autoWaitsOnAFileAndNotOnALiveSource() async throws {
        try PluginHarness.requirePlugin()
        let frames = "num-buffers=60 pattern=ball ! video/x-raw,format=I420,width=1280,height=720,framerate=60/1"
        let file = try await PluginHarness.readMetas(
            "videotestsrc \(frames) ! streamlensdetect name=metas interval=0 ! fakesink sync=false")
        let fileCounts = try #require(file.messages(named: "streamlens-analysis").first)
        #expect(fileCounts["skipped"] as? Int == 0, "\(fileCounts)")
        #expect((fileCounts["completed"] as? Int ?? 0) + (fileCounts["failed"] as? Int ?? 0) == 60, "\(fileCounts)")

        let live = try await PluginHarness.readMetas(
            "videotestsrc is-live=true \(frames) ! streamlensdetect name=metas interval=0 ! fakesink sync=false")
        let liveCounts = try #require(live.messages(named: "streamlens-analysis").first)
        #expect((liveCounts["skipped"] as? Int ?? 0) > 0, "\(liveCounts)")
        #expect(live.buffers.count == 60)
    }
}
