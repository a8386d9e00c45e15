import StreamLensCore
@testable import StreamLensCompositing

/// How the alpha of a test tile is chosen.
enum AlphaPattern: String, CaseIterable, Sendable {
    case transparent, opaque, half, mixed

    func values(count: Int, generator: inout SplitMix) -> [UInt8] {
        switch self {
        case .transparent: [UInt8](repeating: 0, count: count)
        case .opaque: [UInt8](repeating: 255, count: count)
        case .half: [UInt8](repeating: 128, count: count)
        // Every value class at once: 0, 255 and in-between, in a random order.
        case .mixed: (0..<count).map { _ in [0, 255, 1, 128, 254, UInt8(truncatingIfNeeded: generator.next())][Int(generator.next() % 6)] }
        }
    }
}

enum TileFactory {
    /// A tile made through the A420 path from straight Y/U/V/A planes.
    static func a420Tile(
        width: Int, height: Int, y: [UInt8], u: [UInt8], v: [UInt8], alpha: [UInt8], isPremultiplied: Bool = false
    ) -> OverlayTile {
        let chromaWidth = (width + 1) / 2
        var y = y, u = u, v = v, alpha = alpha
        return y.withUnsafeMutableBufferPointer { yBuffer in
            u.withUnsafeMutableBufferPointer { uBuffer in
                v.withUnsafeMutableBufferPointer { vBuffer in
                    alpha.withUnsafeMutableBufferPointer { aBuffer in
                        OverlayTile(
                            a420: Plane(base: yBuffer.baseAddress!, stride: width, width: width, height: height),
                            u: Plane(base: uBuffer.baseAddress!, stride: chromaWidth, width: chromaWidth, height: (height + 1) / 2),
                            v: Plane(base: vBuffer.baseAddress!, stride: chromaWidth, width: chromaWidth, height: (height + 1) / 2),
                            alpha: Plane(base: aBuffer.baseAddress!, stride: width, width: width, height: height),
                            isPremultiplied: isPremultiplied)
                    }
                }
            }
        }
    }

    /// A tile with random colour and the given alpha pattern.
    static func randomTile(width: Int, height: Int, alpha pattern: AlphaPattern, seed: UInt64) -> OverlayTile {
        var generator = SplitMix(seed: seed)
        let chromaCount = ((width + 1) / 2) * ((height + 1) / 2)
        return a420Tile(
            width: width, height: height, y: generator.bytes(width * height), u: generator.bytes(chromaCount),
            v: generator.bytes(chromaCount), alpha: pattern.values(count: width * height, generator: &generator))
    }
}
