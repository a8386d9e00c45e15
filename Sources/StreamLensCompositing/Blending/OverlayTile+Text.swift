import StreamLensText

extension OverlayTile {
    /// Makes a tile from a bitmap rendered by StreamLensText (premultiplied ARGB32): the one colour conversion
    /// a label or badge ever goes through.
    public convenience init(bitmap: ARGBBitmap, matrix: ColorMatrix = .bt709) {
        self.init(premultipliedARGB: bitmap.pixels, width: bitmap.width, height: bitmap.height, matrix: matrix)
    }
}

extension YUVColor {
    /// The opaque YUV of an RGBA colour (alpha ignored).
    public init(_ colour: RGBAColor, matrix: ColorMatrix = .bt709) {
        self.init(red: colour.red, green: colour.green, blue: colour.blue, matrix: matrix)
    }
}
