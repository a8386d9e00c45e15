import Foundation
import StreamLensCore
import StreamLensDetection
import StreamLensTestMedia

/// `yolo-sizes [FRAMES]`: what `--input-size` 320 / 480 / 640 trade on real footage. For a 16:9 clip (bikes-1080p.mp4)
/// and a 4:3 one (vtest.avi), each width runs the network `--detector yolov8n` picks for it (the letterbox fitted to
/// the aspect) on the analysis copy that wide, at the run's defaults (confidence 0.5, the road classes). The boxes are
/// compared with the full model's — the square 640 × 640 network, which agrees with ONNX Runtime on the packaged
/// model (YOLOv8nTests) — as the share of its boxes found again (same class, IoU ≥ 0.5) and the share of boxes it
/// also finds; with the inference median. No labelled ground truth: this measures what a smaller input loses
/// against the model's own best, not accuracy against people's labels. Figures in docs/figures/accuracy.md.
enum YOLOInputSizes {
    struct Found {
        var boxes: [[Detection]]
        var medianMilliseconds: Double
        var width: Int
        var height: Int
    }

    static func run(frames: Int) throws {
        guard YOLOModel.isInstalled else {
            print("yolo-sizes: skipped: yolov8n is not installed (bash scripts/models/install-detector-model.sh yolov8n)")
            return
        }
        for (file, aspect) in [("bikes-1080p.mp4", (16, 9)), ("vtest.avi", (4, 3))] {
            let url = try MediaFiles.media(file)
            let reference = try detect(url, copyWidth: 640, aspect: aspect, input: (640, 640), frames: frames)
            let referenceCount = reference.boxes.map(\.count).reduce(0, +)
            print("yolo-sizes: \(file): reference 640x640 on a 640-wide copy: \(referenceCount) boxes in "
                + "\(reference.boxes.count) frames, median \(format(reference.medianMilliseconds)) ms")
            for width in YOLOModel.inputWidths {
                let input = YOLOModel.inputSize(width: width, frameWidth: aspect.0 * 120, frameHeight: aspect.1 * 120)
                let found = try detect(url, copyWidth: width, aspect: aspect, input: input, frames: frames)
                let (recall, precision) = agreement(found, reference)
                let count = found.boxes.map(\.count).reduce(0, +)
                print("yolo-sizes: \(file): \(input.width)x\(input.height): \(count) boxes, recall of the reference "
                    + "\(percent(recall)), precision against it \(percent(precision)), median "
                    + "\(format(found.medianMilliseconds)) ms")
            }
        }
    }

    static func detect(
        _ url: URL, copyWidth: Int, aspect: (Int, Int), input: (width: Int, height: Int), frames: Int
    ) throws -> Found {
        let copyHeight = (copyWidth * aspect.1 / aspect.0 + 1) / 2 * 2
        let video = try DecodedVideo(url: url, width: copyWidth, height: copyHeight, framesPerSecond: 5, maxFrames: frames)
        var options = ObjectDetectionOptions(detector: .yolov8n)
        let path = try YOLOModel.requireInstalled(width: input.width, height: input.height)
        var onnx = ONNXDetector.Options()
        onnx.inputWidth = input.width
        onnx.inputHeight = input.height
        onnx.layout = .v8
        onnx.confidenceThreshold = options.confidenceThreshold
        onnx.nmsThreshold = options.nmsThreshold
        options.allowedClasses = []
        onnx.allowedClasses = options.effectiveAllowedClasses
        let detector = try ONNXDetector(modelPath: path, options: onnx)
        _ = try video.withFrame(0) { try detector.detect($0) }  // first-call allocations are not steady state
        let clock = SystemClock()
        var boxes: [[Detection]] = []
        var times: [Double] = []
        for index in 0..<video.frameCount {
            let start = clock.now()
            let found = try video.withFrame(index) { try detector.detect($0) }
            times.append((clock.now() - start).milliseconds)
            // In fractions of the frame, so copies of different widths compare.
            boxes.append(found.map { detection in
                var scaled = detection
                scaled.box = BoundingBox(
                    x: detection.box.x / Double(copyWidth), y: detection.box.y / Double(copyHeight),
                    width: detection.box.width / Double(copyWidth), height: detection.box.height / Double(copyHeight))
                return scaled
            })
        }
        times.sort()
        return Found(boxes: boxes, medianMilliseconds: times[times.count / 2], width: copyWidth, height: copyHeight)
    }

    /// (share of the reference's boxes found, share of the found boxes in the reference): greedy one-to-one matching,
    /// best overlap first, same class, IoU ≥ 0.5.
    static func agreement(_ found: Found, _ reference: Found) -> (recall: Double, precision: Double) {
        var matched = 0
        var foundTotal = 0
        var referenceTotal = 0
        for (candidates, truth) in zip(found.boxes, reference.boxes) {
            foundTotal += candidates.count
            referenceTotal += truth.count
            var pairs: [(iou: Double, candidate: Int, truth: Int)] = []
            for (i, candidate) in candidates.enumerated() {
                for (j, expected) in truth.enumerated() where candidate.className == expected.className {
                    let iou = candidate.box.intersectionOverUnion(expected.box)
                    if iou >= 0.5 { pairs.append((iou, i, j)) }
                }
            }
            var usedCandidates = Set<Int>()
            var usedTruths = Set<Int>()
            for pair in pairs.sorted(by: { $0.iou > $1.iou })
            where !usedCandidates.contains(pair.candidate) && !usedTruths.contains(pair.truth) {
                usedCandidates.insert(pair.candidate)
                usedTruths.insert(pair.truth)
                matched += 1
            }
        }
        return (Double(matched) / Double(max(referenceTotal, 1)), Double(matched) / Double(max(foundTotal, 1)))
    }

    static func percent(_ share: Double) -> String { String(format: "%.0f %%", share * 100) }
    static func format(_ milliseconds: Double) -> String { String(format: "%.0f", milliseconds) }
}
