import Foundation
import StreamLensCore
import Testing

@testable import StreamLensDetection

/// The bridge reads frames in place: row strides wider than the picture and NV12 chroma must give the same
/// answers as tightly packed I420.
@Suite("Frame layouts handed to OpenCV")
struct FrameLayoutTests {
    /// Copies `planes` into a buffer whose rows are `padding` bytes longer than needed, in `layout`, and lends
    /// the copy as an analysis frame.
    static func withPaddedCopy<Result>(
        of planes: YUVPlanes, layout: PixelLayout, padding: Int, _ body: (AnalysisFrame) throws -> Result
    ) rethrows -> Result {
        let width = planes.width
        let height = planes.height
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        let lumaStride = width + padding
        let chromaStride = (layout == .nv12 ? chromaWidth * 2 : chromaWidth) + padding
        let lumaBytes = lumaStride * height
        let chromaBytes = chromaStride * chromaHeight
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: lumaBytes + 2 * chromaBytes)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 0xEE, count: lumaBytes + 2 * chromaBytes)  // padding must never be read
        let copy = YUVPlanes(
            layout: layout, width: width, height: height, lumaBase: buffer, lumaStride: lumaStride,
            chromaBase: buffer + lumaBytes, chromaStride: chromaStride,
            vBase: layout == .i420 ? buffer + lumaBytes + chromaBytes : nil, vStride: chromaStride)
        for row in 0..<height {
            for column in 0..<width { copy.y[column, row] = planes.y[column, row] }
        }
        for row in 0..<chromaHeight {
            for column in 0..<chromaWidth {
                copy.u[column, row] = planes.u[column, row]
                copy.v[column, row] = planes.v[column, row]
            }
        }
        return try body(AnalysisFrame(pts: .zero, frameIndex: 0, planes: copy, sourceWidth: width, sourceHeight: height))
    }

    @Test("HOG gives the same people on a padded NV12 copy of a vtest frame", arguments: [PixelLayout.i420, .nv12])
    func hogOnPaddedFrame(layout: PixelLayout) throws {
        let video = try VTestClip.shared.get()
        let detector = try HOGPeopleDetector()
        let packed = try video.withFrame(25) { try detector.detect($0) }
        let padded = try video.withFrame(25) { frame in
            try Self.withPaddedCopy(of: frame.planes, layout: layout, padding: 40) { try detector.detect($0) }
        }
        #expect(!packed.isEmpty)
        #expect(padded == packed)
    }

    @Test("ONNX colour input is the same from padded I420 and padded NV12", arguments: [PixelLayout.i420, .nv12])
    func onnxColourFromLayouts(layout: PixelLayout) throws {
        var options = ONNXDetector.Options()
        options.inputWidth = 320
        options.inputHeight = 320
        options.layout = .v8
        let detector = try ONNXDetector(modelPath: try TestEnvironment.onnxFixture("probe-v8.onnx"), options: options)
        // Left half red, right half blue: a swapped U/V or a misread stride moves the probe's box.
        let image = OwnedYUVImage(layout: .i420, width: 640, height: 360)
        image.withPlanes { planes in
            for row in 0..<360 {
                for column in 0..<640 { planes.y[column, row] = column < 320 ? 81 : 41 }
            }
            for row in 0..<180 {
                for column in 0..<320 {
                    planes.u[column, row] = column < 160 ? 90 : 240
                    planes.v[column, row] = column < 160 ? 240 : 110
                }
            }
        }
        let reference = try TestFrames.withFrame(image) { try detector.detect($0) }
        let fromCopy = try image.withPlanes { planes in
            try Self.withPaddedCopy(of: planes, layout: layout, padding: 24) { try detector.detect($0) }
        }
        try #require(reference.count == 1)
        #expect(fromCopy == reference)
        // Red and blue are each about half the frame: their means are close to each other.
        let box = reference[0].box
        let meanR = (box.x + box.width / 2) * 0.5 / 300
        let meanB = box.width * 0.5 / 300
        #expect(abs(meanR - meanB) < 0.02, "mean R \(meanR), mean B \(meanB)")
    }
}
