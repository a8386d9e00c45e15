import Foundation
import StreamLensCore
import StreamLensDetection
import StreamLensGStreamer

/// `streamlensdetect`: the command line's object detection (`--detector`) as an element. The stage and its
/// adaptive schedule come from ``ObjectDetectionSetup`` with the same defaults; the model loads at READY→PAUSED so
/// that a missing file is one ERROR before anything flows.
final class DetectElement: AnalysisElement, @unchecked Sendable {
    static let detectorForms =
        "hog, yolov8n, cascade:NAME|PATH (NAME: fullbody, upperbody, frontalface, licence_plate) or onnx:PATH"

    init(element: ElementHandle) {
        super.init(element: element, rules: [
            PropertyRule("detector", allowed: Self.detectorForms) { value in
                do { _ = try DetectorSpec(parsing: value.stringValue ?? "") } catch { return "no such detector" }
                return nil
            },
        ])
    }

    override func framesWillWait(_ waiting: Bool) { OpenCVRuntime.configure(framesWaitForResults: waiting) }

    override func makeStage() throws(ElementSetupError) -> (stage: any AnalysisStage, schedule: any AnalysisSchedule) {
        var options: ObjectDetectionOptions
        do { options = ObjectDetectionOptions(detector: try DetectorSpec(parsing: string("detector") ?? "")) } catch {
            throw ElementSetupError(.settings, "\(error)")
        }
        options.confidenceThreshold = double("confidence")
        options.allowedClasses = (string("classes") ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        options.interval = seconds("interval")
        if case .yolov8n = options.detector { options.inputSize = int("input-size") }
        do {
            let built = try ObjectDetectionSetup.make(options, loading: .now)
            return (built.stage, built.schedule)
        } catch let error as DetectionError {
            let problem: ElementHandle.Problem = switch error {
            case .fileNotFound, .modelNotInstalled, .modelLoadFailed, .unknownCascade: .notFound
            default: .settings
            }
            throw ElementSetupError(problem, "\(error)")
        } catch {
            throw ElementSetupError(.failed, "\(error)")
        }
    }
}
