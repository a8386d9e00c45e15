// Measures the per-frame cost of StreamLens compositing at 1080p on one thread.
//
//   Benchmarks/run-compositing-benchmark.sh [iterations]
//
// The scenario: three overlay tiles (one 384×384, two 128×128, soft-edged discs like a logo clip) plus ten
// detection boxes with labels, on an I420 and an NV12 1920×1080 frame; then the other annotators on their own.
// Prints median, mean and 99th percentile per frame and, when the run script preloads the allocation counter, heap
// allocations per frame. The script pins it to one core; results go to docs/figures/performance.md, never into tests.
#if canImport(Glibc)
import Glibc
#endif
import StreamLensCompositing
import StreamLensCore
import StreamLensText

let iterations = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 2000
let clock = SystemClock()

/// A disc of `colour` with a two-pixel soft edge, transparent corners: premultiplied ARGB32.
func discTile(size: Int, red: UInt32, green: UInt32, blue: UInt32) -> OverlayTile {
    var pixels = [UInt32](repeating: 0, count: size * size)
    let centre = Double(size) / 2, radius = Double(size) / 2 - 2
    for row in 0..<size {
        for column in 0..<size {
            let dx = Double(column) + 0.5 - centre, dy = Double(row) + 0.5 - centre
            let coverage = max(0, min(1, radius - (dx * dx + dy * dy).squareRoot() + 0.5))
            let a = UInt32((coverage * 255).rounded())
            pixels[row * size + column] = a << 24 | (red * a / 255) << 16 | (green * a / 255) << 8 | (blue * a / 255)
        }
    }
    return OverlayTile(premultipliedARGB: pixels, width: size, height: size)
}

/// Heap allocations so far, when the counter library is preloaded (see Benchmarks/run-compositing-benchmark.sh); nil otherwise.
let allocationCount: (@convention(c) () -> UInt)? = {
    #if canImport(Glibc)
    guard let symbol = dlsym(nil, "streamlens_malloc_calls") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) () -> UInt).self)
    #else
    return nil
    #endif
}()

/// Runs `body` `iterations` times after a warm-up; returns sorted per-run milliseconds and allocations per run.
func measure(_ body: () -> Void) -> (milliseconds: [Double], allocationsPerFrame: Double?) {
    for _ in 0..<50 { body() }
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    let allocationsBefore = allocationCount?()
    for _ in 0..<iterations {
        let start = clock.now()
        body()
        samples.append((clock.now() - start).milliseconds)
    }
    let allocationsAfter = allocationCount?()
    let perFrame = allocationsBefore.flatMap { before in allocationsAfter.map { Double($0 - before) / Double(iterations) } }
    return (samples.sorted(), perFrame)
}

func report(_ label: String, _ result: (milliseconds: [Double], allocationsPerFrame: Double?)) {
    let sorted = result.milliseconds
    let mean = sorted.reduce(0, +) / Double(sorted.count)
    let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
    func format(_ value: Double) -> String {
        let microseconds = Int((value * 1000).rounded())
        return "\(microseconds / 1000).\(String(repeating: "0", count: 3 - String(microseconds % 1000).count))\(microseconds % 1000)"
    }
    let allocations = result.allocationsPerFrame.map { ", \($0) allocations/frame" } ?? ""
    print("\(label): median \(format(sorted[sorted.count / 2])) ms, mean \(format(mean)) ms, p99 \(format(p99)) ms\(allocations)")
}

let logo = discTile(size: 384, red: 40, green: 160, blue: 230)
let badgeA = discTile(size: 128, red: 230, green: 40, blue: 40)
let badgeB = discTile(size: 128, red: 250, green: 250, blue: 250)
let halfTransparent = OverlayTile(width: 384, height: 384, color: YUVColor(red: 200, green: 200, blue: 0), alpha: 128)

/// Ten boxes of five classes spread over the frame, with track ids: what a busy street scene gives the annotators.
let classes: [(name: String, id: Int)] = [("person", 0), ("car", 2), ("bicycle", 1), ("bus", 5), ("truck", 7)]
var boxes: [Detection] = []
for index in 0..<10 {
    let column = Double(index % 5), row = Double(index / 5)
    let box = BoundingBox(x: 60 + column * 360, y: 200 + row * 420, width: 220, height: 300)
    let kind = classes[index % 5]
    boxes.append(Detection(
        box: box, className: kind.name, classID: kind.id, confidence: 0.5 + Double(index) * 0.04, trackID: 100 + index))
}
let signReading = Detection(
    box: BoundingBox(x: 1500, y: 300, width: 80, height: 80), className: "speed_limit", confidence: 0.9, text: "50")
let context = CompositeContext(
    pts: .seconds(10), frameIndex: 250,
    latestDetections: ["detector": Detections(pts: .seconds(10), source: "detector", items: boxes + [signReading])])
let renderer = TextRenderer()
let boxesAndLabels = AnnotationStage(annotators: [BoxAnnotator(), LabelAnnotator(renderer: renderer)])
let badgeAndHUD = AnnotationStage(annotators: [
    SpeedLimitBadgeAnnotator(renderer: renderer),
    HUDAnnotator(renderer: renderer) { HUDSnapshot(framesPerSecond: 24.98, droppedFrames: 3) },
])
let spotlight = AnnotationStage(annotators: [SpotlightAnnotator()])
/// Serves a 60-frame, 30 fps loop of disc tiles at any requested size, from memory.
struct DiscClipLoader: OverlayClipLoader {
    func loadClip(_ request: OverlayClipRequest) throws(OverlayError) -> any OverlayClipSource {
        let size = request.width ?? 128
        let frames = (0..<60).map { discTile(size: size, red: UInt32(100 + $0), green: 160, blue: 230) }
        return OverlayClip(name: request.path, frames: frames, timing: .constant(FrameRate(30), frameCount: 60))
    }
}
let overlayStage = OverlayStage(
    rules: [
        OverlayRule(path: "logo", trigger: .always, placement: .fixed(x: 100, y: 100, width: 384, height: 384)),
        OverlayRule(
            path: "marker", trigger: .detection(className: "person", minimumConfidence: 0),
            placement: .box(anchor: .top, scale: 0.5, minimumWidth: 64, maximumWidth: 128)),
    ],
    loader: DiscClipLoader(), loadsInBackground: false, warn: { print("warning: \($0)") })
overlayStage.preroll()
var overlayFrame = 0

// Control for the allocation counter: a one-entry label cache re-renders every label on every frame.
let thrashingLabels = AnnotationStage(annotators: [LabelAnnotator(cacheCapacity: 1, renderer: renderer)])

print("CompositingBenchmark: 1920×1080, \(iterations) frames per scenario, one thread")
print(allocationCount == nil ? "(allocation counter not loaded: use Benchmarks/run-compositing-benchmark.sh to count allocations)" : "(allocation counter loaded)")
for layout in PixelLayout.allCases {
    let frame = OwnedYUVImage(layout: layout, width: 1920, height: 1080, fill: (90, 110, 140))
    frame.withPlanes { planes in
        report("\(layout) 3 tiles (384² + 2×128²), even positions", measure {
            TileBlender.blend(logo, onto: planes, x: 100, y: 100)
            TileBlender.blend(badgeA, onto: planes, x: 1600, y: 80)
            TileBlender.blend(badgeB, onto: planes, x: 1600, y: 800)
        })
        report("\(layout) 3 tiles, odd positions, fading (opacity 0.6)", measure {
            TileBlender.blend(logo, onto: planes, x: 101, y: 99, opacity: 0.6)
            TileBlender.blend(badgeA, onto: planes, x: 1601, y: 81, opacity: 0.6)
            TileBlender.blend(badgeB, onto: planes, x: 1599, y: 801, opacity: 0.6)
        })
        report("\(layout) worst case: 384² tile at alpha 128 everywhere", measure {
            TileBlender.blend(halfTransparent, onto: planes, x: 500, y: 300)
        })
        report("\(layout) ISSUE SCENARIO: 3 tiles + 10 boxes with labels", measure {
            TileBlender.blend(logo, onto: planes, x: 100, y: 100)
            TileBlender.blend(badgeA, onto: planes, x: 1601, y: 81)
            TileBlender.blend(badgeB, onto: planes, x: 1600, y: 800)
            boxesAndLabels.composite(onto: planes, context: context)
        })
        report("\(layout) 10 boxes with labels alone", measure {
            boxesAndLabels.composite(onto: planes, context: context)
        })
        report("\(layout) speed-limit badge + HUD", measure {
            badgeAndHUD.composite(onto: planes, context: context)
        })
        report("\(layout) spotlight (dims the full frame outside 10 boxes)", measure {
            spotlight.composite(onto: planes, context: context)
        })
        report("\(layout) OverlayStage: 384² always-on loop + 2 box markers (128²), 30 fps clips", measure {
            overlayFrame += 1
            let frameContext = CompositeContext(
                pts: .milliseconds(40 * overlayFrame), frameIndex: overlayFrame, latestDetections: context.latestDetections)
            overlayStage.composite(onto: planes, context: frameContext)
        })
        report("\(layout) control: labels with a 1-entry cache (render every frame)", measure {
            thrashingLabels.composite(onto: planes, context: context)
        })
    }
}
