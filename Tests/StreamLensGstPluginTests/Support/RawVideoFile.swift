import Foundation
import StreamLensCore

/// A file of raw I420 or NV12 frames as `filesink` writes them after a StreamLens element (GStreamer's default
/// layout: for widths that are multiples of 8, rows are tightly packed).
struct RawVideoFile {
    let data: Data
    let layout: PixelLayout
    let width: Int
    let height: Int

    init(contentsOf url: URL, layout: PixelLayout, width: Int, height: Int) throws {
        precondition(width % 8 == 0 && height % 2 == 0, "the reader assumes GStreamer's unpadded layout")
        data = try Data(contentsOf: url)
        self.layout = layout
        self.width = width
        self.height = height
    }

    var frameSize: Int { width * height * 3 / 2 }
    var frameCount: Int { data.count / frameSize }

    func luma(frame: Int, x: Int, y: Int) -> UInt8 {
        data[frame * frameSize + y * width + x]
    }

    /// U and V of the chroma sample at chroma coordinates (`x`, `y`).
    func chroma(frame: Int, x: Int, y: Int) -> (u: UInt8, v: UInt8) {
        let base = frame * frameSize + width * height
        switch layout {
        case .i420:
            let quarter = (width / 2) * (height / 2)
            return (data[base + y * (width / 2) + x], data[base + quarter + y * (width / 2) + x])
        case .nv12:
            return (data[base + y * width + 2 * x], data[base + y * width + 2 * x + 1])
        }
    }

    /// The luma samples of a rectangle, row by row (to compare regions between frames).
    func lumaRegion(frame: Int, x: Int, y: Int, width regionWidth: Int, height regionHeight: Int) -> [UInt8] {
        var samples: [UInt8] = []
        samples.reserveCapacity(regionWidth * regionHeight)
        for row in y..<(y + regionHeight) {
            let start = frame * frameSize + row * width + x
            samples.append(contentsOf: data[start..<(start + regionWidth)])
        }
        return samples
    }
}
