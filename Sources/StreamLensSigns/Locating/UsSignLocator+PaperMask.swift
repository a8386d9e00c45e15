import StreamLensCore

// The paper mask (step 2 of ``UsSignLocator``) and the per-sample tests it and the later steps share.
extension UsSignLocator {
    /// Whether a sample's chroma is paper's: white or grey, tinted by warm or cool light by up to `limit` in U and V.
    @inline(__always)
    static func isNearNeutral(u: UInt8, v: UInt8, limit: Int) -> Bool {
        abs(Int(u) - 128) <= limit && abs(Int(v) - 128) <= limit
    }

    /// Whether the sample lies in a thin dark line (the border, however blurred, or a letter's stroke): at least
    /// ``minimumValleyDepth`` (or ``relativeValleyDepth`` of its level) darker than the brightest sample within three on
    /// both sides, across or down.
    /// (No min/max here: unoptimized builds call them through generics, and this runs per sample.)
    @inline(__always)
    static func isOnDarkLine(
        _ luma: UnsafeBufferPointer<UInt8>, x: Int, y: Int, width: Int, height: Int, depth: Int, share: Double
    ) -> Bool {
        func lumaAt(_ column: Int, _ row: Int) -> Int {
            let x = column < 0 ? 0 : column >= width ? width - 1 : column
            let y = row < 0 ? 0 : row >= height ? height - 1 : row
            return Int(luma[y * width + x])
        }
        func peak(_ a: Int, _ b: Int, _ c: Int) -> Int {
            let ab = a > b ? a : b
            return ab > c ? ab : c
        }
        let level = lumaAt(x, y)
        let leftPeak = peak(lumaAt(x - 1, y), lumaAt(x - 2, y), lumaAt(x - 3, y))
        let rightPeak = peak(lumaAt(x + 1, y), lumaAt(x + 2, y), lumaAt(x + 3, y))
        let upPeak = peak(lumaAt(x, y - 1), lumaAt(x, y - 2), lumaAt(x, y - 3))
        let downPeak = peak(lumaAt(x, y + 1), lumaAt(x, y + 2), lumaAt(x, y + 3))
        let relative = Int(Double(level) * share)
        let bar = relative > depth ? relative : depth
        return (leftPeak < rightPeak ? leftPeak : rightPeak) - level >= bar
            || (upPeak < downPeak ? upPeak : downPeak) - level >= bar
    }

    /// Paper where chroma is near neutral and luma (the 2 × 2 mean when `factor` is 2) is bright, and brighter than
    /// the scene around it.
    mutating func buildPaperMask(planes: YUVPlanes, width: Int, height: Int, factor: Int) {
        if mask.count < width * height {
            mask = [UInt8](repeating: 0, count: width * height)
            luma = [UInt8](repeating: 0, count: width * height)
            lumaIntegral = [Int32](repeating: 0, count: (width + 1) * (height + 1))
        }
        let lastColumn = planes.y.width - 1
        let lastRow = planes.y.height - 1
        let stride = width + 1
        luma.withUnsafeMutableBufferPointer { luma in
            lumaIntegral.withUnsafeMutableBufferPointer { sums in
                for y in 0..<height {
                    let top = planes.y.row(min(factor * y, lastRow))
                    let bottom = planes.y.row(min(factor * y + factor - 1, lastRow))
                    let step = planes.y.pixelStride
                    var rowSum: Int32 = 0
                    for x in 0..<width {
                        // (No min/max in these per-pixel loops: unoptimized builds call them through generics.)
                        let mean: Int
                        if factor == 1 {
                            mean = Int(top[x * step])
                        } else {
                            let left = (2 * x < lastColumn ? 2 * x : lastColumn) * step
                            let right = (2 * x + 1 < lastColumn ? 2 * x + 1 : lastColumn) * step
                            mean = (Int(top[left]) + Int(top[right]) + Int(bottom[left]) + Int(bottom[right]) + 2) / 4
                        }
                        luma[y * width + x] = UInt8(mean)
                        rowSum += Int32(mean)
                        sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + rowSum
                    }
                }
            }
        }
        let radius = localWindowRadius * 2 / factor
        let chromaLimit = maximumChroma
        let margin = minimumLocalBrightness
        let darkest = minimumPaperLuma
        let valleyDepth = minimumValleyDepth
        let valleyShare = relativeValleyDepth
        mask.withUnsafeMutableBufferPointer { mask in
            luma.withUnsafeBufferPointer { luma in
                lumaIntegral.withUnsafeBufferPointer { sums in
                    for y in 0..<height {
                        let vRow = planes.v.row(y * factor / 2)
                        let uRow = planes.u.row(y * factor / 2)
                        let vStep = planes.v.pixelStride
                        let uStep = planes.u.pixelStride
                        let top = y - radius > 0 ? y - radius : 0
                        let bottom = y + radius + 1 < height ? y + radius + 1 : height
                        for x in 0..<width {
                            let index = y * width + x
                            let level = Int(luma[index])
                            let chromaX = x * factor / 2
                            guard level >= darkest,
                                Self.isNearNeutral(
                                    u: uRow[chromaX * uStep], v: vRow[chromaX * vStep], limit: chromaLimit)
                            else {
                                mask[index] = 0
                                continue
                            }
                            let left = x - radius > 0 ? x - radius : 0
                            let right = x + radius + 1 < width ? x + radius + 1 : width
                            let sum = Int(sums[bottom * stride + right]) - Int(sums[top * stride + right])
                                - Int(sums[bottom * stride + left]) + Int(sums[top * stride + left])
                            let mean = sum / ((bottom - top) * (right - left))
                            guard level - mean >= margin else {
                                mask[index] = 0
                                continue
                            }
                            // A thin dark line (the border, however blurred) is never paper: it must cut the plate
                            // off from a bright background even where the mean says bright. (Checked last: few
                            // samples get this far.)
                            let isValley = Self.isOnDarkLine(
                                luma, x: x, y: y, width: width, height: height, depth: valleyDepth, share: valleyShare)
                            mask[index] = isValley ? 0 : 1
                        }
                    }
                }
            }
        }
    }
}
