/// The one rule for "frames are missing here", shared by the statistics' gap count and the frame path's cut at a
/// stop, so the two never disagree about what a hole is.
public enum FrameStep {
    /// True when consecutive timestamps `step` apart skip at least one frame of `nominal` duration: the step is more
    /// than 1.5 frames (half a frame of slack for rounded and jittery timestamps).
    public static func skipsFrames(_ step: Duration, nominal: Duration) -> Bool {
        step * 2 > nominal * 3
    }
}
