import Foundation
import StreamLensTestMedia
import StreamLensCore
import StreamLensDetection

/// `detection-bench [FRAMES]`: inference time per analysed frame of each backend on real frames (vtest.avi), printed
/// as median and p95, one "bench-detection:" line per backend. Benchmarks/run-detection-benchmark.sh runs it on a
/// release build; figures in docs/figures/performance.md. `STREAMLENS_BENCH_CV_THREADS=N` limits OpenCV's threads.
enum DetectionBenchmark {
    static func run(frames: Int) throws {
        try hogAndCascades(frames: frames)
        try onnx(frames: frames)
        try yolov8n(frames: frames)
    }

    static func measure(_ label: String, _ detector: any ObjectDetector, _ video: DecodedVideo, frames: Int) throws {
        if let threads = ProcessInfo.processInfo.environment["STREAMLENS_BENCH_CV_THREADS"].flatMap(Int.init) {
            OpenCVRuntime.threadCount = threads
        }
        let clock = SystemClock()
        // One warm-up call: first-call allocations (buffers, the network's memory) are not steady state.
        _ = try video.withFrame(0) { try detector.detect($0) }
        var times: [Duration] = []
        var found = 0
        for index in 0..<min(frames, video.frameCount) {
            let start = clock.now()
            found += try video.withFrame(index) { try detector.detect($0) }.count
            times.append(clock.now() - start)
        }
        times.sort()
        let median = times[times.count / 2].milliseconds
        let p95 = times[min(times.count - 1, Int((Double(times.count) * 0.95).rounded(.up)) - 1)].milliseconds
        let name = label.padding(toLength: 46, withPad: " ", startingAt: 0)
        print("bench-detection: \(name)" + String(
            format: " %4dx%-4d median %7.1f ms  p95 %7.1f ms  (%d frames, %d detections, %d OpenCV threads)",
            video.width, video.height, median, p95, times.count, found, OpenCVRuntime.threadCount))
    }

    static func video(width: Int, height: Int, frames: Int) throws -> DecodedVideo {
        try DecodedVideo(
            url: try MediaFiles.media("vtest.avi"), width: width, height: height, framesPerSecond: 5,
            maxFrames: frames)
    }

    static func hogAndCascades(frames: Int) throws {
        let at640 = try video(width: 640, height: 480, frames: frames)
        let at768 = try video(width: 768, height: 576, frames: frames)
        try measure("hog (defaults)", try HOGPeopleDetector(), at640, frames: frames)
        // The peer: the same detector with OpenCV's own HOGDescriptor::detect scoring each level.
        let openCVScorer = HOGPeopleDetector.Options(windowScorer: .openCV)
        try measure(
            "hog (defaults), OpenCV's window scorer", try HOGPeopleDetector(options: openCVScorer), at640,
            frames: frames)
        var upscaled = HOGPeopleDetector.Options()
        upscaled.upscale = 1.25
        try measure("hog upscale 1.25 (vtest test setting)", try HOGPeopleDetector(options: upscaled), at768, frames: frames)
        try measure("cascade:fullbody", try CascadeDetector(cascade: "fullbody"), at640, frames: frames)
        try measure("cascade:frontalface", try CascadeDetector(cascade: "frontalface"), at640, frames: frames)
    }

    static func onnx(frames: Int) throws {
        let directory = try MediaFiles.temporaryDirectory("bench-onnx")
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = MediaFiles.repositoryRoot.appendingPathComponent("scripts/datasets/make-test-onnx.py").path
        let made = try MediaFiles.run("python3", [script, directory.path, "--bench"])
        guard made.status == 0 else { throw MediaError("make-test-onnx.py failed: \(made.output)") }
        let at640 = try video(width: 640, height: 480, frames: frames)
        var options = ONNXDetector.Options()
        options.classNamesPath = directory.appendingPathComponent("classes.txt").path
        try measure(
            "onnx fixed output (pre/post-processing only)",
            try ONNXDetector(modelPath: directory.appendingPathComponent("yolov8-fixed.onnx").path, options: options),
            at640, frames: frames)
        try measure(
            "onnx YOLOv8n-shaped, ~7 GFLOPs, 640 input",
            try ONNXDetector(
                modelPath: directory.appendingPathComponent("bench-yolov8n-shaped.onnx").path,
                options: ONNXDetector.Options()),
            at640, frames: frames)
    }

    /// The installed yolov8n model (bash scripts/models/install-detector-model.sh yolov8n) on the analysis copy of a 1080p
    /// dashcam clip (bikes-1080p.mp4 at 640 × 360, what the stage hands it): the square 640 input `--detector
    /// yolov8n` runs, and the 640 × 384 one the install script also writes for 16:9 frames (less padding). Skipped,
    /// with a line saying how to install it, when the model is absent.
    static func yolov8n(frames: Int) throws {
        guard let square = YOLOModel.installedPath() else {
            print("bench-detection: yolov8n skipped: not installed (bash scripts/models/install-detector-model.sh yolov8n)")
            return
        }
        let video = try DecodedVideo(
            url: try MediaFiles.media("bikes-1080p.mp4"), width: 640, height: 360, framesPerSecond: 5,
            maxFrames: frames)
        let wide = (square as NSString).deletingLastPathComponent + "/yolov8n-640x384.onnx"
        for (label, path, height) in [("yolov8n 640x640", square, 640), ("yolov8n 640x384", wide, 384)] {
            var options = ONNXDetector.Options()
            options.inputHeight = height
            options.layout = .v8
            try measure(label, try ONNXDetector(modelPath: path, options: options), video, frames: frames)
        }
    }
}
