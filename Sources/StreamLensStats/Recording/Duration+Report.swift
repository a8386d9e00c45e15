import StreamLensCore

extension Duration {
    /// Milliseconds computed from whole nanoseconds, so round durations print round (9 ms → 9.0, not
    /// 9.000000000000002 as going through attoseconds gives).
    var reportMilliseconds: Double { Double(nanoseconds) / 1_000_000 }

    /// Seconds computed from whole nanoseconds (see ``reportMilliseconds``).
    var reportSeconds: Double { Double(nanoseconds) / 1_000_000_000 }
}
