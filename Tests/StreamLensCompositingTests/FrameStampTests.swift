import Testing
import StreamLensCore
@testable import StreamLensCompositing

@Suite struct FrameStampTests {
    @Test(arguments: [
        (0, Duration.zero, "#0 00:00:00.000"),
        (37, Duration.milliseconds(1233), "#37 00:00:01.233"),
        (123_456, Duration.seconds(3723) + .milliseconds(45), "#123456 01:02:03.045"),
    ])
    func labelText(index: Int, pts: Duration, expected: String) {
        let text = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            String(decoding: buffer[..<FrameStampStage.writeLabel(index: index, pts: pts, into: buffer)], as: UTF8.self)
        }
        #expect(text == expected)
    }

    /// The strip written on a frame reads back as the same index, in both chroma layouts.
    @Test(arguments: [(PixelLayout.i420, 0), (.i420, 1), (.nv12, 40_000), (.i420, 65_535)])
    func stripRoundTrips(layout: PixelLayout, index: Int) {
        let image = OwnedYUVImage(layout: layout, width: 320, height: 240, fill: (128, 128, 128))
        image.withPlanes { planes in
            FrameStampStage().composite(onto: planes, context: CompositeContext(pts: .seconds(1), frameIndex: index))
            #expect(FrameStampStage.readFrameIndex(from: planes) == index)
            // The text box is dark with neutral chroma; the glyph pixels are white.
            #expect(planes.u[0, 20] == 128 && planes.v[0, 20] == 128)
        }
    }

    @Test func unstampedFrameDoesNotReadAsAnIndex() {
        let image = OwnedYUVImage(layout: .i420, width: 320, height: 240, fill: (128, 128, 128))
        image.withPlanes { #expect(FrameStampStage.readFrameIndex(from: $0) == nil) }
    }
}
