import Testing
@testable import StreamLensGStreamer

/// The decoder thread limit a frame-accurate file run sets (libav's frame threads cost about 20 MiB at 1080p:
/// docs/figures/performance.md).
@Suite struct DecoderThreadTests {
    /// Encodes a few test frames to H.264 and decodes them through `decodebin`, with or without the limit.
    private func decodedThreads(limit: Int?, encoder: String = "x264enc ! h264parse") throws -> [Int] {
        let pipeline = try Pipeline(
            "videotestsrc num-buffers=5 ! video/x-raw,width=64,height=64 ! \(encoder) ! decodebin "
                + "! fakesink name=sink sync=false", label: "input")
        if let limit { pipeline.limitVideoDecoderThreads(to: limit) }
        try pipeline.setState(.playing)
        var sawEndOfStream = false
        while let message = pipeline.nextMessage(timeout: .seconds(10)) {
            if case .endOfStream = message { sawEndOfStream = true; break }
            if case .error(let error) = message { Issue.record("pipeline error: \(error)"); break }
        }
        #expect(sawEndOfStream)
        #expect(pipeline.renderedFrames(sinkName: "sink") == 5)
        let threads = pipeline.videoDecoderThreads()
        try pipeline.setState(.null)
        return threads
    }

    @Test func decodebinsDecoderGetsTheLimit() throws {
        #expect(try decodedThreads(limit: 1) == [1])
        #expect(try decodedThreads(limit: 3) == [3])
    }

    /// libav cannot thread every codec; those decoders (avdec_msmpeg4, as in vtest.avi) have no `max-threads`, and
    /// setting it anyway printed a GLib warning on the user's terminal. They are left alone.
    @Test func aDecoderThatCannotThreadIsLeftAlone() throws {
        #expect(try decodedThreads(limit: 1, encoder: "avenc_msmpeg4") == [])
    }

    @Test func withoutTheLimitTheDecoderKeepsItsOwnChoice() throws {
        // avdec's default: 0, libav picks one thread per core.
        #expect(try decodedThreads(limit: nil) == [0])
    }
}
