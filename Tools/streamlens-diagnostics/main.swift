import Foundation

// Development aids that measure or print, never check: where the sign reader loses real signs, what the locators
// find, what a detector costs. They were test cases that asserted nothing; here they run on demand.
let usage = """
    usage: streamlens-diagnostics COMMAND [ARGUMENTS]
      sign-misses [--stage] SET    where the reader loses each real sign, step by step (SET: a real-photo clips
                                   folder, e.g. .media-cache/gtsrb/clips/dev); --stage reads as the stage does
      locate SET                   the red-ring locator alone on SET: located sign frames, sign-free candidates, time
      us-signs [SET]               per frame of the US sign clips: candidates, crops, reads (default: the generated
                                   US set, .media-cache/us-sign-testset)
      us-locator-cost              the US locator's cost per frame beside the red-ring locator's
      detection-bench [FRAMES]     inference time per frame of each detection backend on vtest.avi (default 40)
      yolo-sizes [FRAMES]          yolov8n at --input-size 320, 480, 640 against the full model (default 50)
      detect-mot VIDEO W H FPS EVERY hog|yolov8n FLOOR OUT
                                   the detector's boxes (down to FLOOR) on every EVERY-th frame of VIDEO decoded at
                                   W × H and FPS, as MOTChallenge detections (class id in column 8)
      track-mot DETECTIONS OUT FPS [CONFIDENCE [FLOOR]]
                                   the tracker replayed over MOTChallenge detections (default 0.5 and 0.1): tracks
                                   in MOTChallenge text (scripts/evaluation/eval-tracking.sh)
    Each command's environment variables are listed in its source (Tools/streamlens-diagnostics/).
    """

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}
arguments.removeFirst()
do {
    switch command {
    case "sign-misses":
        let stage = arguments.contains("--stage")
        guard let set = arguments.first(where: { $0 != "--stage" }) else { throw UsageError() }
        try SignMisses.run(setFolder: set, mode: stage ? "stage" : "1")
    case "locate":
        guard let set = arguments.first else { throw UsageError() }
        try LocatorMeasure.run(setFolder: set)
    case "us-signs":
        try UsSignSteps.run(setFolder: arguments.first)
    case "us-locator-cost":
        try UsSignLocatorCost.run()
    case "detection-bench":
        try DetectionBenchmark.run(frames: arguments.first.flatMap(Int.init) ?? 40)
    case "yolo-sizes":
        try YOLOInputSizes.run(frames: arguments.first.flatMap(Int.init) ?? 50)
    case "detect-mot":
        guard arguments.count == 8, let width = Int(arguments[1]), let height = Int(arguments[2]),
            let fps = Int(arguments[3]), let every = Int(arguments[4]), let floor = Double(arguments[6])
        else { throw UsageError() }
        try TrackingReplay.detect(
            video: arguments[0], width: width, height: height, framesPerSecond: fps, every: every,
            detector: arguments[5], floor: floor, output: arguments[7])
    case "track-mot":
        guard (3...5).contains(arguments.count), let fps = Double(arguments[2]) else { throw UsageError() }
        try TrackingReplay.track(
            detections: arguments[0], output: arguments[1], framesPerSecond: fps,
            confidence: arguments.count > 3 ? Double(arguments[3]) ?? 0.5 : 0.5,
            floor: arguments.count > 4 ? Double(arguments[4]) ?? 0.1 : 0.1)
    case "-h", "--help", "help":
        print(usage)
    default:
        throw UsageError()
    }
} catch is UsageError {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("streamlens-diagnostics \(command): \(error)\n".utf8))
    exit(1)
}

struct UsageError: Error {}
