/// A fixed pseudo-random number for `index` (Knuth's multiplicative hash, top bits): noise the same on every run.
func scrambled(_ index: Int) -> UInt32 {
    (UInt32(truncatingIfNeeded: index) &* 2_654_435_761) >> 8
}
