/// `x / 255` rounded to the nearest integer, exact for every `x` in `0...65_025` (255 × 255).
///
/// Blending multiplies two 8-bit values and must scale the product back to 8 bits; a true division is several
/// times slower than this shift-and-add form. Ties cannot occur: `x / 255` is never exactly `n + 0.5` because 255
/// is odd. A test checks every input against `(x + 127) / 255`.
@inline(__always)
func divideBy255Rounded(_ x: Int) -> Int {
    let biased = x + 128
    return (biased + (biased >> 8)) >> 8
}
