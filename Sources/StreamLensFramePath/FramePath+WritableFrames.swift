import StreamLensCore
import StreamLensGStreamer

extension FramePath {
    /// Returns a buffer compositing may write: `buffer` itself when no one else holds it, otherwise a copy in a
    /// recycled buffer (the original is released).
    func makeWritable(_ buffer: FrameBuffer, format: VideoFormat) -> FrameBuffer {
        if buffer.isWritable { return buffer }
        if copyPool?.format !== format { copyPool = CopyPool(format: format) }
        guard let copy = copyPool?.copy(of: buffer) else { return buffer.makeWritable() }
        copiedFrames.add(1, ordering: .relaxed)
        buffer.release()
        return copy
    }
}
