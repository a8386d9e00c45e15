import Foundation

extension OpenCVRuntime {
    /// Sets OpenCV's threads for a run's detection, the same rule for the command line and streamlensdetect.
    /// Frames that do not wait for analysis: one thread, so the detector gets one core, decoding and encoding keep the
    /// others, and a slow detector cannot crowd out the video. Frames that wait for each analysed frame's result
    /// (synchronous analysis): the detector is on the video's critical path and may use every core, which measured
    /// faster on two cores (docs/figures/performance.md).
    public static func configure(framesWaitForResults: Bool) {
        threadCount = framesWaitForResults ? ProcessInfo.processInfo.activeProcessorCount : 1
    }
}
