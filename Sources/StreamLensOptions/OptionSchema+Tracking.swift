/// The tracker's options: ByteTrack-style association, its thresholds and windows (docs/guides/tracking.md).
extension OptionSchema {
    public static let trackingFloor = OptionSpec(
        key: "stages.detector.tracking_floor", kind: .number(0...1), default: .number(0.1),
        help: "Detections between this confidence and the confidence threshold only continue tracks (the "
            + "tracker's second association round: a partly hidden object keeps its id), never start one and are "
            + "never shown on their own; at or above the threshold disables it. Models report such boxes; HOG and "
            + "cascades score their hits 0.5 and above.")
    public static let reidWindow = OptionSpec(
        key: "stages.detector.reid_window", kind: .number(0.001...86_400), default: .number(3), unit: "s",
        help: "A lost track keeps its id this long (and at most max_missed analyses) and is matched again on its "
            + "predicted box.")
    public static let confirmHits = OptionSpec(
        key: "stages.detector.confirm_hits", kind: .int(1...100), default: .int(2),
        help: "Sightings (within reid_window) before a track gets an id and is shown (tracks on the first analysed frame: at "
            + "once); 1 shows every detection at once.")
    /// The tracking options, in the order the reference page lists them.
    public static let trackingOptions: [OptionSpec] = [trackingFloor, reidWindow, confirmHits]
}
