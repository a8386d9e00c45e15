import Testing
import StreamLensCore
@testable import StreamLens

/// Which runs decode on one thread (libav's frame threads cost about 20 MiB at 1080p, docs/figures/performance.md,
/// and a frame-accurate run's frames wait for analysis anyway).
@Suite struct DecoderThreadRuleTests {
    private func threads(
        _ input: InputSource, signs: Bool = true, sync: SyncAnalysisMode = .auto, backpressure: BackpressurePolicy? = nil
    ) -> Int? {
        var configuration = RunConfiguration(input: input)
        configuration.speedLimits = signs ? SpeedLimitOptions() : nil
        configuration.syncAnalysis = sync
        configuration.backpressure = backpressure
        return PipelineRunner(configuration: configuration).decoderThreads
    }

    @Test func aFrameAccurateFileRunWithAnalysisDecodesOnOneThread() {
        #expect(threads(.file(path: "clip.mp4")) == 1)
        #expect(threads(.file(path: "clip.mp4"), sync: .on) == 1)
    }

    @Test func everyOtherRunKeepsTheDecodersChoice() {
        // No analysis: a plain transcode wants the decoder's full speed.
        #expect(threads(.file(path: "clip.mp4"), signs: false) == nil)
        // Frames drawn at once (no hold), or a file read like a live source.
        #expect(threads(.file(path: "clip.mp4"), sync: .off) == nil)
        #expect(threads(.file(path: "clip.mp4"), backpressure: .drop) == nil)
        // Live sources.
        #expect(threads(.camera(device: "/dev/video0")) == nil)
    }
}
