internal import CPangoCairo

/// Cairo plumbing shared by text and badge drawing: an ARGB32 surface in, an ``ARGBBitmap`` out.
enum CairoCanvas {
    /// Creates a transparent `width` × `height` ARGB32 surface, lets `body` draw on it, and copies the pixels out.
    static func draw(
        width: Int, height: Int, _ body: (OpaquePointer) -> Void
    ) throws(TextRenderingError) -> ARGBBitmap {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw .surfaceFailed(width: width, height: height, status: "no surface")
        }
        defer { cairo_surface_destroy(surface) }
        try check(cairo_surface_status(surface), width, height)
        guard let cairo = cairo_create(surface) else { throw .surfaceFailed(width: width, height: height, status: "no context") }
        body(cairo)
        let drawStatus = cairo_status(cairo)
        cairo_destroy(cairo)
        try check(drawStatus, width, height)
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else {
            throw .surfaceFailed(width: width, height: height, status: "no pixel data")
        }
        let rowLength = Int(cairo_image_surface_get_stride(surface)) / 4
        let source = UnsafeRawPointer(data).assumingMemoryBound(to: UInt32.self)
        var pixels = [UInt32](repeating: 0, count: width * height)
        for row in 0..<height {
            for column in 0..<width { pixels[row * width + column] = source[row * rowLength + column] }
        }
        return ARGBBitmap(width: width, height: height, pixels: pixels)
    }

    static func setSource(_ cairo: OpaquePointer, _ colour: RGBAColor) {
        cairo_set_source_rgba(
            cairo, Double(colour.red) / 255, Double(colour.green) / 255, Double(colour.blue) / 255, Double(colour.alpha) / 255)
    }

    /// Adds a rectangle with rounded corners at the origin to the current path.
    static func roundedRectangle(_ cairo: OpaquePointer, width: Double, height: Double, radius: Double) {
        let halfPi = Double.pi / 2
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, width - radius, radius, radius, -halfPi, 0)
        cairo_arc(cairo, width - radius, height - radius, radius, 0, halfPi)
        cairo_arc(cairo, radius, height - radius, radius, halfPi, 2 * halfPi)
        cairo_arc(cairo, radius, radius, radius, 2 * halfPi, 3 * halfPi)
        cairo_close_path(cairo)
    }

    private static func check(_ status: cairo_status_t, _ width: Int, _ height: Int) throws(TextRenderingError) {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        let text = cairo_status_to_string(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
        throw .surfaceFailed(width: width, height: height, status: text)
    }
}
