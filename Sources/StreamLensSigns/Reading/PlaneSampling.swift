import StreamLensCore

extension Plane {
    /// The plane's value at the fractional position (`x`, `y`), interpolated between its four neighbours; positions
    /// outside the plane take the nearest edge sample.
    func bilinear(x: Double, y: Double) -> Double {
        let x = min(max(x, 0), Double(width - 1))
        let y = min(max(y, 0), Double(height - 1))
        let column0 = Int(x)
        let row0 = Int(y)
        let column1 = min(column0 + 1, width - 1)
        let row1 = min(row0 + 1, height - 1)
        let weightX = x - Double(column0)
        let weightY = y - Double(row0)
        let top = Double(self[column0, row0]) * (1 - weightX) + Double(self[column1, row0]) * weightX
        let bottom = Double(self[column0, row1]) * (1 - weightX) + Double(self[column1, row1]) * weightX
        return top * (1 - weightY) + bottom * weightY
    }
}
