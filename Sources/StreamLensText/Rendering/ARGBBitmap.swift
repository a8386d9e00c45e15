/// A rendered image in Cairo's `ARGB32` format: one native-endian `UInt32` per pixel, alpha in the top byte, red,
/// green and blue premultiplied by alpha; rows `width` pixels long, no padding.
///
/// This is what the text module hands out; compositing turns it into a YUV tile once.
public struct ARGBBitmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt32]

    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height, "bitmap must hold width × height pixels")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }

    /// Alpha (0…255) of the pixel at (`x`, `y`).
    public func alpha(x: Int, y: Int) -> UInt8 { UInt8(self[x, y] >> 24) }
}
