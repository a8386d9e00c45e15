// Measures the per-frame cost of StreamLens compositing at 1080p on one thread.
//
//   swift run -c release --scratch-path .build-comp CompositingBenchmark [iterations]
//
// Scenario of issue 4: three overlay tiles (one 384×384, two 128×128, soft-edged discs like a logo clip) on an I420
// and an NV12 1920×1080 frame. Prints median, mean and 99th percentile per frame. Run pinned to one core
// (`taskset -c 1 …`) for stable figures; results are recorded in BENCHMARKS.md, never asserted by tests.
import StreamLensCompositing
import StreamLensCore

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

/// Runs `body` `iterations` times after a warm-up; returns sorted per-run milliseconds.
func measure(_ body: () -> Void) -> [Double] {
    for _ in 0..<50 { body() }
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = clock.now()
        body()
        samples.append((clock.now() - start).milliseconds)
    }
    return samples.sorted()
}

func report(_ label: String, _ sorted: [Double]) {
    let mean = sorted.reduce(0, +) / Double(sorted.count)
    let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
    func format(_ value: Double) -> String {
        let microseconds = Int((value * 1000).rounded())
        return "\(microseconds / 1000).\(String(repeating: "0", count: 3 - String(microseconds % 1000).count))\(microseconds % 1000)"
    }
    print("\(label): median \(format(sorted[sorted.count / 2])) ms, mean \(format(mean)) ms, p99 \(format(p99)) ms")
}

let logo = discTile(size: 384, red: 40, green: 160, blue: 230)
let badgeA = discTile(size: 128, red: 230, green: 40, blue: 40)
let badgeB = discTile(size: 128, red: 250, green: 250, blue: 250)
let halfTransparent = OverlayTile(width: 384, height: 384, color: YUVColor(red: 200, green: 200, blue: 0), alpha: 128)

print("CompositingBenchmark: 1920×1080, \(iterations) frames per scenario, one thread")
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
    }
}
