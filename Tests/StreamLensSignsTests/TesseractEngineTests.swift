import Foundation
import Testing

@testable import StreamLensSigns

/// The engine as the reader uses it: one line of dark digits on white, Tesseract's OpenMP team switched off.
struct TesseractEngineTests {
    /// A "50" drawn from strokes (a flag and a bowl, an oval ring), `scale` times the size of a 66-row OCR picture.
    static func drawnFifty(scale: Int) -> (pixels: [UInt8], width: Int, height: Int) {
        let width = 100 * scale
        let height = 66 * scale
        var pixels = [UInt8](repeating: 255, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let fx = Double(x) / Double(scale)
                let fy = Double(y) / Double(scale)
                let flag = (13...18).contains(fy) && (13...40).contains(fx)
                let stem = (13...18).contains(fx) && (13...32).contains(fy)
                let bowl = ((fx - 27) / 13).hypot((fy - 40) / 13)
                let oval = ((fx - 70) / 14).hypot((fy - 33) / 20)
                if flag || stem || (bowl > 0.62 && bowl < 1 && fx > 20) || (oval > 0.68 && oval < 1) {
                    pixels[y * width + x] = 20
                }
            }
        }
        return (pixels, width, height)
    }

    @Test func readsADrawnDigitLineOnOneThread() throws {
        let engine = try TesseractEngine()
        for scale in [1, 2] {
            let line = Self.drawnFifty(scale: scale)
            let (text, confidence) = line.pixels.withUnsafeBufferPointer {
                engine.read(gray: $0.baseAddress!, width: line.width, height: line.height, bytesPerRow: line.width)
            }
            // OpenMP keeps the setting per thread: it must hold on the thread that just read.
            #expect(TesseractEngine.recognitionIsSingleThreaded, "Tesseract would start an OpenMP team per LSTM step")
            #expect(text == "50", "scale \(scale)")
            #expect(confidence > 0.8, "scale \(scale): \(confidence)")
        }
    }
}

extension Double {
    fileprivate func hypot(_ other: Double) -> Double { (self * self + other * other).squareRoot() }
}
