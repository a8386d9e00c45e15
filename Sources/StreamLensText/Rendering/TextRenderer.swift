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

extension TextRenderer {
    /// Draws the United States speed-limit sign (MUTCD R2-1): a white plate with a black border, "SPEED LIMIT" above
    /// the limit in large black digits.
    /// - Parameters:
    ///   - value: the limit ("45").
    ///   - height: plate height in pixels; the bitmap is 4/5 as wide (the sign's 24 × 30 inches), rounded corners
    ///     transparent.
    public func renderUSSpeedLimitBadge(value: String, height: Int) throws(TextRenderingError) -> ARGBBitmap {
        guard height >= 20, height <= 1024 else { throw .invalidSize("badge height \(height) px is outside 20…1024") }
        let width = (height * 4 / 5) & ~1
        return try pango.withLock { state throws(TextRenderingError) -> ARGBBitmap in
            let wordStyle = TextStyle(font: "DejaVu Sans", size: Double(height) * 0.15, colour: .black)
            let words = state.makeLayout(text: "SPEED\nLIMIT", style: wordStyle)
            defer { g_object_unref(UnsafeMutableRawPointer(words)) }
            pango_layout_set_alignment(words, PANGO_ALIGN_CENTER)
            pango_layout_set_spacing(words, Int32(Double(height) * -0.02 * Double(PANGO_SCALE)))
            let numberSize = Double(height) * (value.count >= 3 ? 0.3 : 0.4)
            let number = state.makeLayout(
                text: value, style: TextStyle(font: "DejaVu Sans", size: numberSize, colour: .black))
            defer { g_object_unref(UnsafeMutableRawPointer(number)) }
            var wordsInk = PangoRectangle(), numberInk = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_pixel_extents(words, &wordsInk, &logical)
            pango_layout_get_pixel_extents(number, &numberInk, &logical)
            let w = Double(width), h = Double(height)
            let border = max(2, (h * 0.035).rounded())
            return try CairoCanvas.draw(width: width, height: height) { cairo in
                // Black plate, white face inside the border: the sign's black border line.
                CairoCanvas.setSource(cairo, .black)
                CairoCanvas.roundedRectangle(cairo, width: w, height: h, radius: h * 0.06)
                cairo_fill(cairo)
                cairo_save(cairo)
                cairo_translate(cairo, border, border)
                CairoCanvas.setSource(cairo, .white)
                CairoCanvas.roundedRectangle(cairo, width: w - 2 * border, height: h - 2 * border, radius: h * 0.04)
                cairo_fill(cairo)
                cairo_restore(cairo)
                pango_cairo_update_context(cairo, state.context)
                CairoCanvas.setSource(cairo, .black)
                // The words in the upper 38 %, the number centred in the rest (ink, not line boxes).
                cairo_move_to(
                    cairo, (w / 2 - Double(wordsInk.width) / 2 - Double(wordsInk.x)).rounded(),
                    (h * 0.21 - Double(wordsInk.height) / 2 - Double(wordsInk.y)).rounded())
                pango_cairo_show_layout(cairo, words)
                cairo_move_to(
                    cairo, (w / 2 - Double(numberInk.width) / 2 - Double(numberInk.x)).rounded(),
                    (h * 0.66 - Double(numberInk.height) / 2 - Double(numberInk.y)).rounded())
                pango_cairo_show_layout(cairo, number)
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
