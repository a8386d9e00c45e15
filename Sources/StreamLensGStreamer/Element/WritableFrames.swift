internal import CGStreamer
internal import CGStreamerShim

/// Gives a drawing element a buffer it may write, the way the command line's frame path does: the buffer itself when
/// the element holds the only reference, otherwise a copy in a recycled buffer of a `GstVideoBufferPool` (the same
/// ``CopyPool``), so that steady state allocates nothing — where GStreamer's own fallback (mapping a shared buffer
/// for writing) would allocate fresh memory for every frame.
///
/// ## Thread Safety
/// Used by one streaming thread (the element's `prepare_output_buffer`).
public final class WritableFrames: @unchecked Sendable {
    private var pool: CopyPool?
    /// Frames copied so far.
    public private(set) var copies = 0

    public init() {}

    /// `buffer` (borrowed) when it is writable; otherwise a new pooled copy with its pixels, timestamps and metadata
    /// (a full reference for the caller, who then drops the original). Nil when no copy could be made: the caller
    /// falls back to GStreamer's copy.
    public func writable(_ buffer: BufferHandle, format: VideoFormat) -> UnsafeMutableRawPointer? {
        if slx_buffer_is_writable(buffer.buffer) != 0 { return UnsafeMutableRawPointer(buffer.buffer) }
        if pool?.format !== format { pool = CopyPool(format: format) }
        guard let copy = pool?.copy(of: buffer.buffer) else { return nil }
        copies += 1
        return UnsafeMutableRawPointer(copy)
    }
}
