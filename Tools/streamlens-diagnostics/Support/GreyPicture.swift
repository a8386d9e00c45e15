import Foundation
import StreamLensCore

/// Grey pictures written for a person to look at (binary PGM).
enum GreyPicture {
    /// Writes the first `width` × `height` bytes of `pixels` (row-major) as a PGM file at `path`; failures are ignored
    /// (a development aid).
    static func write(_ pixels: some Collection<UInt8>, width: Int, height: Int, to path: String) {
        var pgm = Data("P5\n\(width) \(height)\n255\n".utf8)
        pgm.append(contentsOf: pixels.prefix(width * height))
        _ = FileManager.default.createFile(atPath: path, contents: pgm)
    }

    /// The luma of `box` and around it (a square 1.5 times its larger side, clamped at the frame's edges) as a PGM.
    static func writeSurroundings(of box: BoundingBox, in planes: YUVPlanes, to path: String) {
        let side = Int(max(box.width, box.height) * 1.5)
        let left = Int(box.x + box.width / 2) - side / 2
        let top = Int(box.y + box.height / 2) - side / 2
        var crop = [UInt8](repeating: 0, count: side * side)
        for y in 0..<side {
            let sourceY = min(max(top + y, 0), planes.height - 1)
            for x in 0..<side { crop[y * side + x] = planes.y[min(max(left + x, 0), planes.width - 1), sourceY] }
        }
        write(crop, width: side, height: side, to: path)
    }
}
