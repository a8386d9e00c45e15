import StreamLensCore

@testable import StreamLensDetection

/// A detector double: answers scripted detections, fails on demand, and can advance a manual clock by a
/// simulated inference time so latency, timeouts and the budget can be tested exactly.
final class ScriptedDetector: ObjectDetector, @unchecked Sendable {
    let backendName = "scripted"
    /// Detections returned by the next calls (the last entry repeats).
    var answers: [[Detection]] = [[]]
    /// While true every call throws.
    var failing = false
    /// Each call advances `clock` by this much.
    var inferenceTime: Duration = .zero
    private(set) var calls = 0
    private let clock: ManualClock?

    init(clock: ManualClock? = nil) { self.clock = clock }

    func detect(_ frame: AnalysisFrame) throws -> [Detection] {
        calls += 1
        clock?.advance(by: inferenceTime)
        if failing { throw DetectionError.detectionFailed(backend: backendName, reason: "injected failure") }
        return answers.count > 1 ? answers.removeFirst() : answers[0]
    }
}

/// Helpers to make boxes and detections short to write.
func box(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> BoundingBox {
    BoundingBox(x: x, y: y, width: width, height: height)
}

func person(_ x: Double, _ y: Double, _ width: Double = 40, _ height: Double = 80, confidence: Double = 0.9)
    -> Detection
{
    Detection(box: box(x, y, width, height), className: "person", classID: 0, confidence: confidence)
}
