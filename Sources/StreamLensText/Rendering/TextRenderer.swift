internal import CPangoCairo
import Synchronization

/// Renders text and simple vector graphics into premultiplied ARGB32 bitmaps with Pango and Cairo.
///
/// Rendering is slow next to blending (tens to hundreds of microseconds), so callers render each distinct label
/// once and keep the result (``TextTileCache``). Text is grey-antialiased (no subpixel colour fringes, which would
/// smear after 4:2:0 chroma subsampling) with full hinting and hinted metrics, so stems land on whole pixels and
/// small labels stay crisp.
///
/// ## Thread Safety
/// The renderer owns a private Pango font map and context (Pango objects are not thread-safe); a mutex serializes
/// every call, so one renderer may be shared between threads.
public final class TextRenderer: Sendable {
    private let pango: Mutex<PangoState>

    public init() {
        pango = Mutex(PangoState())
    }

    /// Renders `text` in one line (newlines start new lines) on an optional background box.
    /// - Parameters:
    ///   - font: a fontconfig family, e.g. "DejaVu Sans".
    ///   - size: em height in pixels.
    ///   - colour: text colour; `background`: box colour, nil for text alone with a dark outline.
    public func renderTile(
        text: String, font: String = "DejaVu Sans", size: Double, colour: RGBAColor, background: RGBAColor?
    ) throws(TextRenderingError) -> ARGBBitmap {
        try renderTile(text: text, style: TextStyle(font: font, size: size, colour: colour, background: background))
    }

    /// Renders `text` as `style` says.
    public func renderTile(text: String, style: TextStyle) throws(TextRenderingError) -> ARGBBitmap {
        guard style.size.isFinite, style.size >= 4, style.size <= 512 else {
            throw .invalidSize("text size \(style.size) px is outside 4…512")
        }
        return try pango.withLock { state throws(TextRenderingError) -> ARGBBitmap in
            let layout = state.makeLayout(text: text, style: style)
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_pixel_extents(layout, &ink, &logical)
            // The outline of unboxed text reaches one pixel past the glyphs.
            let outline = style.background == nil && style.hasOutline ? 1 : 0
            let padding = style.padding + outline
            let width = max(1, Int(logical.width) + 2 * padding)
            let height = max(1, Int(logical.height) + 2 * padding)
            return try CairoCanvas.draw(width: width, height: height) { cairo in
                if let background = style.background {
                    CairoCanvas.setSource(cairo, background)
                    CairoCanvas.roundedRectangle(
                        cairo, width: Double(width), height: Double(height), radius: min(Double(style.padding), Double(height) / 4))
                    cairo_fill(cairo)
                }
                pango_cairo_update_context(cairo, state.context)
                cairo_move_to(cairo, Double(padding - Int(logical.x)), Double(padding - Int(logical.y)))
                if outline > 0 {
                    // A dark halo keeps light text readable on any video.
                    pango_cairo_layout_path(cairo, layout)
                    cairo_set_line_width(cairo, 2)
                    cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
                    CairoCanvas.setSource(cairo, RGBAColor.black.withAlpha(style.colour.alpha))
                    cairo_stroke(cairo)
                    cairo_move_to(cairo, Double(padding - Int(logical.x)), Double(padding - Int(logical.y)))
                }
                CairoCanvas.setSource(cairo, style.colour)
                pango_cairo_show_layout(cairo, layout)
            }
        }
    }

    /// Draws the classic European speed-limit sign: a red ring around a white disc with the limit in black.
    /// - Parameters:
    ///   - value: the text in the disc, normally the limit ("50", "120").
    ///   - diameter: outer diameter in pixels; the bitmap is `diameter` × `diameter` with transparent corners.
    public func renderSpeedLimitBadge(value: String, diameter: Int) throws(TextRenderingError) -> ARGBBitmap {
        guard diameter >= 16, diameter <= 1024 else { throw .invalidSize("badge diameter \(diameter) px is outside 16…1024") }
        return try pango.withLock { state throws(TextRenderingError) -> ARGBBitmap in
            let radius = Double(diameter) / 2
            // Ring about a tenth of the diameter wide, as on the road signs (Vienna Convention C14).
            let ringWidth = max(2, (Double(diameter) * 0.11).rounded())
            // Longer values get a smaller font so they fit inside the ring.
            let fontSize = Double(diameter) * (value.count >= 3 ? 0.36 : 0.46)
            let layout = state.makeLayout(text: value, style: TextStyle(font: "DejaVu Sans", size: fontSize, colour: .black))
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_pixel_extents(layout, &ink, &logical)
            return try CairoCanvas.draw(width: diameter, height: diameter) { cairo in
                cairo_arc(cairo, radius, radius, radius - 0.5, 0, 2 * Double.pi)
                CairoCanvas.setSource(cairo, .signalRed)
                cairo_fill(cairo)
                cairo_arc(cairo, radius, radius, radius - ringWidth, 0, 2 * Double.pi)
                CairoCanvas.setSource(cairo, .white)
                cairo_fill(cairo)
                // Centre the digits' ink (not their line box) on the disc, on whole pixels.
                let x = (radius - Double(ink.width) / 2 - Double(ink.x)).rounded()
                let y = (radius - Double(ink.height) / 2 - Double(ink.y)).rounded()
                pango_cairo_update_context(cairo, state.context)
                cairo_move_to(cairo, x, y)
                CairoCanvas.setSource(cairo, .black)
                pango_cairo_show_layout(cairo, layout)
            }
        }
    }
}

/// The renderer's Pango objects; only touched under the renderer's mutex.
private struct PangoState: ~Copyable, @unchecked Sendable {
    let fontMap: UnsafeMutablePointer<PangoFontMap>
    let context: OpaquePointer

    init() {
        fontMap = pango_cairo_font_map_new()
        context = pango_font_map_create_context(fontMap)
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_FULL)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_ON)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(fontMap)
    }

    /// A layout of `text` in `style`'s font; the caller unrefs it.
    func makeLayout(text: String, style: TextStyle) -> OpaquePointer {
        let layout = pango_layout_new(context)!
        let description = pango_font_description_new()
        pango_font_description_set_family(description, style.font)
        pango_font_description_set_weight(description, style.isBold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_absolute_size(description, style.size * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        pango_layout_set_text(layout, text, -1)
        return layout
    }
}
