import Foundation
import StreamLensCore
import StreamLensDetection
import StreamLensOptions
import Testing
@testable import StreamLens

/// The option schema against the places built from it: the pipeline-file reader applies every key's range and
/// choices, the command line has every flag with the schema's default in its help and checks its ranges, and the
/// product types start from the schema's defaults. (The elements: `ElementSchemaTests` in the plugin's tests.)
@Suite struct OptionSchemaPlacesTests {
    /// A pipeline file that sets `option` to `value` (YAML text), with what its section needs around it.
    static func pipelineFile(setting option: OptionSpec, to value: String) -> String {
        let path = option.key!.split(separator: ".").map(String.init)
        let name = path.last!
        let source = path.first == "source" ? "" : "source: { input: a.mp4 }\n"
        switch path.dropLast().joined(separator: ".") {
        case "source" where name != "input":
            return "source: { input: a.mp4, \(name): \(value) }\n"
        case "stages.detector" where name != "backend":
            return source + "stages: { detector: { backend: hog, \(name): \(value) } }\n"
        case "stages.overlays" where name != "clip":
            return source + "stages: { overlays: [ { clip: logo.webm, \(name): \(value) } ] }\n"
        case "stages.overlays":
            return source + "stages: { overlays: [ { clip: \(value) } ] }\n"
        default:
            var text = "\(name): \(value)"
            for section in path.dropLast().reversed() { text = "\(section): { \(text) }" }
            return source + text + "\n"
        }
    }

    static let numericKeys = OptionSchema.all.filter { option in
        guard option.key != nil else { return false }
        switch option.kind {
        case .int, .number: return true
        default: return false
        }
    }

    @Test(arguments: numericKeys.map(\.key!))
    func aPipelineFileNumberBeyondTheSchemasRangeIsRefused(key: String) throws {
        let option = try #require(OptionSchema.option(key: key))
        let beyond: String = switch option.kind {
        case .int(let range): "\(range.upperBound + 1)"
        case .number(let range): "\(range.upperBound + 1)"
        default: "0"
        }
        let text = Self.pipelineFile(setting: option, to: beyond)
        do {
            _ = try PipelineFile.parse(text, file: "f.yaml")
            Issue.record("\(key): \(beyond) was accepted")
        } catch {
            #expect("\(error)".contains("'\(option.keyName!)") || "\(error)".contains(".\(option.keyName!)'"), "\(key): \(error)")
            #expect("\(error)".contains("\(beyond) is out of range; allowed"), "\(key): \(error)")
        }
        // Its default (or the range's lower end) is accepted.
        let inside: String = switch (option.kind, option.defaultValue) {
        case (_, .some(let value)): value.description
        case (.int(let range), nil): "\(range.lowerBound)"
        case (.number(let range), nil): "\(range.lowerBound)"
        default: "0"
        }
        #expect(throws: Never.self, "\(key): \(inside)") {
            _ = try PipelineFile.parse(Self.pipelineFile(setting: option, to: inside), file: "f.yaml")
        }
    }

    static let choiceKeys = OptionSchema.all.filter { option in
        if option.key != nil, case .choice = option.kind { return true }
        return false
    }

    @Test(arguments: choiceKeys.map(\.key!))
    func aPipelineFileWordOutsideTheSchemasChoicesIsRefused(key: String) throws {
        let option = try #require(OptionSchema.option(key: key))
        guard case .choice(let words) = option.kind else { return }
        do {
            _ = try PipelineFile.parse(Self.pipelineFile(setting: option, to: "nonsense"), file: "f.yaml")
            Issue.record("\(key): nonsense was accepted")
        } catch {
            #expect("\(error)".hasSuffix("'nonsense' is not allowed; use one of: \(words.joined(separator: ", "))"), "\(error)")
        }
    }

    @Test func everyFlagIsInTheCommandLinesHelpWithTheSchemasDefault() async throws {
        let result = try await runTool(["run", "--help-hidden"])
        #expect(result.status == 0, "\(result.standardError)")
        let help = result.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ").replacingOccurrences(of: "  ", with: " ")
        for option in OptionSchema.commandLine {
            #expect(help.contains(option.cliName!), "\(option.cliName!) is not in `streamlens run --help-hidden`")
            if let defaultValue = option.defaultValue, option.kind != .flag {
                #expect(help.contains("(default: \(defaultValue))"), "\(option.cliName!): default \(defaultValue)")
            }
        }
    }

    static let numericFlags = OptionSchema.commandLine.filter { option in
        switch option.kind {
        case .int, .number: true
        default: false
        }
    }

    @Test(arguments: numericFlags.map(\.flag!))
    func aFlagBeyondTheSchemasRangeIsOneLineAndExitCode2(flag: String) async throws {
        let option = try #require(OptionSchema.option(flag: flag))
        let beyond: String = switch option.kind {
        case .int(let range): "\(range.upperBound + 1)"
        case .number(let range): "\(range.upperBound + 1)"
        default: ""
        }
        let result = try await runTool(["run", "--input", "videotestsrc num-buffers=1", "--\(flag)", beyond])
        #expect(result.status == 2, "\(flag): \(result.standardError)")
        #expect(result.standardError.hasPrefix("streamlens: error: '--\(flag)': \(beyond)"), "\(result.standardError)")
        #expect(result.standardError.contains("is out of range; allowed"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
    }

    /// The product types start from the schema's defaults, so a run without the option does what the reference says.
    @Test func theProductTypesStartFromTheSchemasDefaults() {
        typealias O = OptionSchema
        let detection = ObjectDetectionOptions(detector: .hog)
        #expect(O.confidence.defaultValue == .number(detection.confidenceThreshold))
        #expect(O.iou.defaultValue == .number(detection.nmsThreshold))
        #expect(O.inputSize.defaultValue == .int(detection.inputSize))
        #expect(O.detectorInterval.defaultValue == .number(0.3) && detection.interval == .milliseconds(300))
        #expect(O.budget.defaultValue == .number(0.25) && detection.latencyBudget == .milliseconds(250))
        #expect(O.maxConcurrent.defaultValue == .int(detection.maxConcurrent))
        #expect(O.maxAge.defaultValue == .number(30) && detection.maxAge == .seconds(30))
        #expect(O.maxMissed.defaultValue == .int(detection.maxMissedAnalyses))
        #expect(O.primarySubject.defaultValue == .bool(detection.primarySubject))
        #expect(O.trackingFloor.defaultValue == .number(detection.trackingFloor))
        #expect(O.reidWindow.defaultValue == .number(3) && detection.reidentificationWindow == .seconds(3))
        #expect(O.confirmHits.defaultValue == .int(detection.confirmationHits))
        let tracker = TrackerConfiguration()
        #expect(tracker.reidentificationWindow == detection.reidentificationWindow)
        #expect(tracker.confirmationHits == detection.confirmationHits)
        #expect(tracker.maxMissedAnalyses == detection.maxMissedAnalyses)
        let signs = SpeedLimitOptions()
        #expect(O.signConfidence.defaultValue == .number(signs.minimumConfidence))
        #expect(O.signExpiry.defaultValue == .number(180) && signs.expiry == .seconds(180))
        let run = RunConfiguration(input: .file(path: "a.mp4"))
        #expect(O.poolSize.defaultValue == .int(run.poolCapacity))
        #expect(O.encoderPreset.defaultValue == .text(run.encoderPreset))
        #expect(O.syncAnalysis.defaultValue == .text(run.syncAnalysis.rawValue))
        #expect(O.overlayCache.defaultValue == .int(run.overlayCacheCapacity))
        #expect(O.shutdownGrace.defaultValue == .number(5) && run.shutdownGrace == .seconds(5))
        #expect(O.watchdog.defaultValue == .number(30) && run.watchdog == .seconds(30))
        #expect(O.progress.defaultValue == .bool(run.showProgress))
        #expect(O.frameStamp.defaultValue == .bool(run.frameStamp))
    }
}
