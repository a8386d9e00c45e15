import Testing
import StreamLensText

@Suite struct TextRendererTests {
    let renderer = TextRenderer()

    /// Red, green and blue of a premultiplied ARGB32 pixel.
    static func channels(_ pixel: UInt32) -> (a: UInt32, r: UInt32, g: UInt32, b: UInt32) {
        (pixel >> 24, (pixel >> 16) & 0xFF, (pixel >> 8) & 0xFF, pixel & 0xFF)
    }

    @Test func labelIsPremultipliedTextOnItsBackgroundBox() throws {
        let background = RGBAColor(red: 30, green: 120, blue: 220)
        let bitmap = try renderer.renderTile(text: "person 0.87 #12", size: 20, colour: .white, background: background)
        #expect(bitmap.height >= 20 && bitmap.height <= 40)
        #expect(bitmap.width > 5 * bitmap.height)
        // The middle of the top padding row is pure background; rounded corners are (partly) transparent.
        #expect(bitmap[bitmap.width / 2, 1] == 0xFF1E_78DC)
        #expect(bitmap.alpha(x: 0, y: 0) < 255)
        #expect(bitmap.pixels.contains(0xFFFF_FFFF), "no fully opaque white text pixel")
        for pixel in bitmap.pixels {
            let (a, r, g, b) = Self.channels(pixel)
            #expect(r <= a && g <= a && b <= a, "pixel 0x\(String(pixel, radix: 16)) is not premultiplied")
        }
    }

    @Test func longerTextMakesAWiderTile() throws {
        let short = try renderer.renderTile(text: "car", size: 18, colour: .white, background: .black)
        let long = try renderer.renderTile(text: "car 0.91 #3", size: 18, colour: .white, background: .black)
        #expect(long.width > short.width + 30)
        #expect(long.height == short.height)
    }

    /// Full hinting puts horizontal edges on whole pixels: a column through the stem of an "I" holds only
    /// background and full-intensity text, no grey rows at its top and bottom (unhinted text has them).
    @Test func hintedStemsHaveCrispHorizontalEdges() throws {
        let bitmap = try renderer.renderTile(text: "I", size: 20, colour: .white, background: .black)
        let middleRow = bitmap.height / 2
        let stemColumn = try #require((0..<bitmap.width).first { Self.channels(bitmap[$0, middleRow]).r == 255 })
        let column = (0..<bitmap.height).map { Self.channels(bitmap[stemColumn, $0]).r }
        #expect(column.filter { $0 == 255 }.count >= 12)
        #expect(column.allSatisfy { $0 == 0 || $0 == 255 }, "partly covered rows: \(column)")
    }

    @Test func textWithoutBackgroundHasADarkOutline() throws {
        let bitmap = try renderer.renderTile(text: "HUD", size: 24, colour: .white, background: nil)
        #expect(bitmap.alpha(x: 0, y: 0) == 0)
        #expect(bitmap.pixels.contains(0xFFFF_FFFF))
        #expect(bitmap.pixels.contains(0xFF00_0000), "no opaque outline pixel")
    }

    @Test func speedLimitBadgeHasARedRingAWhiteDiscAndBlackDigits() throws {
        let diameter = 128
        let badge = try renderer.renderSpeedLimitBadge(value: "50", diameter: diameter)
        #expect(badge.width == diameter && badge.height == diameter)
        #expect(badge.alpha(x: 0, y: 0) == 0 && badge.alpha(x: diameter - 1, y: diameter - 1) == 0)
        // Ring (C8102E) near the top edge, white between the ring and the digits.
        #expect(badge[diameter / 2, 5] == 0xFFC8_102E)
        #expect(badge[diameter / 2, 20] == 0xFFFF_FFFF)
        #expect(badge[5, diameter / 2] == 0xFFC8_102E)
        // Black digit ink somewhere in the middle third, left and right of centre ("5" and "0").
        let middle = (diameter / 3)..<(2 * diameter / 3)
        let leftInk = middle.contains { y in (diameter / 4..<diameter / 2).contains { badge[$0, y] == 0xFF00_0000 } }
        let rightInk = middle.contains { y in (diameter / 2..<3 * diameter / 4).contains { badge[$0, y] == 0xFF00_0000 } }
        #expect(leftInk && rightInk)
    }

    @Test func usSpeedLimitBadgeIsABlackBorderedWhitePlateWithWordsAboveTheNumber() throws {
        let height = 130
        let badge = try renderer.renderUSSpeedLimitBadge(value: "45", height: height)
        #expect(badge.width == 104 && badge.height == height)
        // Rounded corners transparent, the border black, the face white; nothing red anywhere.
        #expect(badge.alpha(x: 0, y: 0) == 0)
        #expect(badge[badge.width / 2, 1] == 0xFF00_0000 && badge[1, height / 2] == 0xFF00_0000)
        #expect(badge[badge.width / 2, 8] == 0xFFFF_FFFF)
        #expect(!badge.pixels.contains { pixel in
            let (r, g, b) = ((pixel >> 16) & 0xFF, (pixel >> 8) & 0xFF, pixel & 0xFF)
            return r > g + 40 && r > b + 40
        })
        // Ink rows: the two words in the top 40 %, the number (taller strokes) below.
        func inkRows(_ rows: Range<Int>) -> Int {
            rows.filter { y in (8..<(badge.width - 8)).contains { badge[$0, y] == 0xFF00_0000 } }.count
        }
        #expect(inkRows(12..<(height * 2 / 5)) >= 20, "no words above the number")
        #expect(inkRows((height * 2 / 5)..<(height - 8)) >= 35, "no number")
    }

    @Test func absurdSizesAreRejectedWithAClearMessage() {
        #expect(throws: TextRenderingError.invalidSize("badge diameter 4 px is outside 16…1024")) {
            try renderer.renderSpeedLimitBadge(value: "30", diameter: 4)
        }
        let error = #expect(throws: TextRenderingError.self) {
            try renderer.renderTile(text: "x", size: 1000, colour: .white, background: nil)
        }
        #expect(error?.description == "invalid text or badge size: text size 1000.0 px is outside 4…512")
    }
}

@Suite struct TextTileCacheTests {
    @Test func eachLabelIsRenderedOnce() {
        let cache = TextTileCache<TextTileKey, ARGBBitmap>(capacity: 8) { $0 }
        let style = TextStyle(size: 16, background: .black)
        let first = cache.tile(text: "car 0.91 #3", style: style)
        for _ in 0..<99 { #expect(cache.tile(text: "car 0.91 #3", style: style) == first) }
        #expect(first != nil)
        #expect(cache.statistics.renders == 1)
        #expect(cache.statistics.hits == 99)
    }

    @Test func leastRecentlyUsedEntryIsEvicted() {
        let renders = RenderLog()
        let cache = TextTileCache<String, Int>(capacity: 2) { $0.width }
        func lookUp(_ text: String) {
            _ = cache.tile(for: text) { renderer throws(TextRenderingError) in
                renders.append(text)
                return try renderer.renderTile(text: text, size: 12, colour: .white, background: .black)
            }
        }
        lookUp("a"); lookUp("b"); lookUp("a"); lookUp("c")  // b is the least recently used when c arrives
        #expect(cache.contains("a") && cache.contains("c") && !cache.contains("b"))
        #expect(cache.count == 2)
        lookUp("b")  // re-rendered, evicting a
        #expect(renders.entries == ["a", "b", "c", "b"])
        #expect(!cache.contains("a"))
        #expect(cache.statistics.evictions == 2)
    }

    @Test func styleIsPartOfTheKey() {
        let cache = TextTileCache<TextTileKey, ARGBBitmap>(capacity: 8) { $0 }
        let small = cache.tile(text: "bus", style: TextStyle(size: 12))
        let large = cache.tile(text: "bus", style: TextStyle(size: 24))
        #expect(small != nil && large != nil && small != large)
        #expect(cache.statistics.renders == 2)
    }

    @Test func aFailedRenderIsRememberedNotRetried() {
        let cache = TextTileCache<String, ARGBBitmap>(capacity: 4) { $0 }
        for _ in 0..<3 {
            let tile = cache.tile(for: "huge") { renderer throws(TextRenderingError) in
                try renderer.renderTile(text: "huge", size: 9000, colour: .white, background: nil)
            }
            #expect(tile == nil)
        }
        #expect(cache.statistics.renders == 1)
        #expect(cache.statistics.failures == 1)
        #expect(cache.lastError == .invalidSize("text size 9000.0 px is outside 4…512"))
    }
}

/// Records render calls from inside a cache's render closure.
final class RenderLog: @unchecked Sendable {
    var entries: [String] = []
    func append(_ entry: String) { entries.append(entry) }
}
