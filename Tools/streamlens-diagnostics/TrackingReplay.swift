import Foundation
import StreamLensTestMedia
import StreamLensCore
import StreamLensDetection

/// `detect-mot` and `track-mot`: the detector's raw boxes as MOTChallenge detections, and the tracker replayed over
/// such a file, so that scripts/evaluation/eval-tracking.py can feed the very same detections to another tracker (supervision's
/// ByteTrack) and to ours, and score both with py-motmetrics.
///
/// Detection files are MOTChallenge `det.txt` lines, `frame,-1,x,y,w,h,confidence,class,-1,-1` (frames 1-based; the
/// eighth column, unused in 2-D MOT files, carries the class id, -1 when the file has none).
enum TrackingReplay {
    /// Runs `detector` (hog or yolov8n) on every `every`-th frame of `video` decoded at `width` × `height` and
    /// `framesPerSecond`, keeping boxes down to `floor`, and writes them to `output`. Frame numbers count decoded
    /// frames.
    static func detect(
        video: String, width: Int, height: Int, framesPerSecond: Int, every: Int, detector name: String, floor: Double,
        output: String
    ) throws {
        let detector: any ObjectDetector
        switch name {
        case "hog":
            detector = try HOGPeopleDetector()
        case "yolov8n":
            let path = try YOLOModel.requireInstalled()
            var options = ONNXDetector.Options()
            options.layout = .v8
            options.confidenceThreshold = floor
            options.allowedClasses = YOLOModel.roadClasses
            detector = try ONNXDetector(modelPath: path, options: options)
        default:
            throw MediaError("detect-mot: detector \(name) is not hog or yolov8n")
        }
        let decoded = try DecodedVideo(
            url: URL(fileURLWithPath: video), width: width, height: height, framesPerSecond: framesPerSecond,
            maxFrames: 100_000)
        var text = ""
        var boxes = 0
        for index in stride(from: 0, to: decoded.frameCount, by: every) {
            for detection in try decoded.withFrame(index, { try detector.detect($0) }) where detection.confidence >= floor {
                let box = detection.box
                text += "\(index + 1),-1,\(f(box.x)),\(f(box.y)),\(f(box.width)),\(f(box.height)),"
                    + "\(f(detection.confidence, 4)),\(detection.classID),-1,-1\n"
                boxes += 1
            }
        }
        try text.write(toFile: output, atomically: true, encoding: .utf8)
        print("detect-mot: \(boxes) boxes in \(decoded.frameCount / every) analysed frames of \(decoded.frameCount) → \(output)")
    }

    /// Feeds the detections of `detections` (frame `n` at stream time `(n − 1) / framesPerSecond`) to the tracker as
    /// the stage does after a frame-accurate run's analysis: at or above `confidence` to the first round, from
    /// `floor` to the second, boxes drawn as detected; writes the confirmed tracks each frame saw to `output`.
    static func track(detections: String, output: String, framesPerSecond: Double, confidence: Double, floor: Double)
        throws
    {
        var frames: [Int: [Detection]] = [:]
        for line in try String(contentsOfFile: detections, encoding: .utf8).split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard fields.count >= 7, let frame = fields[0], let x = fields[2], let y = fields[3], let w = fields[4],
                let h = fields[5], let score = fields[6]
            else { throw MediaError("track-mot: \(detections): not a MOTChallenge line: \(line)") }
            let classID = fields.count >= 8 ? Int(fields[7] ?? -1) : -1
            frames[Int(frame), default: []].append(Detection(
                box: BoundingBox(x: x, y: y, width: w, height: h), className: "class\(classID)", classID: classID,
                confidence: score))
        }
        var configuration = TrackerConfiguration()
        configuration.smoothing = 1
        configuration.maxConcurrent = 100_000
        let tracker = ByteTracker(configuration: configuration)
        var text = ""
        for frame in frames.keys.sorted() {
            let found = frames[frame]!
            let update = tracker.update(
                found.filter { $0.confidence >= confidence },
                lowConfidence: found.filter { $0.confidence < confidence && $0.confidence >= floor },
                at: .milliseconds(Int64((Double(frame - 1) / framesPerSecond * 1000).rounded())))
            let seen = Set(update.observed.compactMap(\.trackID))
            text += MOTWriter.lines(frame: frame, detections: update.visible.filter { $0.trackID.map(seen.contains) == true })
        }
        try text.write(toFile: output, atomically: true, encoding: .utf8)
        print("track-mot: \(tracker.tracksStarted) tracks over \(frames.count) frames → \(output)")
    }

    private static func f(_ value: Double, _ places: Int = 2) -> String { String(format: "%.\(places)f", value) }
}
