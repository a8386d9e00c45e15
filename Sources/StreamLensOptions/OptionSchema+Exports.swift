/// What a run writes besides its video and reports, in the formats other tools read: tracks for tracking tools, the
/// GPS track and signs for maps (docs/guides/tracking.md, docs/guides/gps.md).
extension OptionSchema {
    /// What `--export KIND FILE` writes, by kind.
    public static let exportKinds = ["mot", "coco", "geojson", "gpx"]

    public static let export = OptionSpec(
        flag: "export", kind: .text("KIND FILE or KIND=FILE, repeatable; kinds: \(exportKinds.joined(separator: ", "))"),
        unset: "none",
        help: "mot: the tracks in MOTChallenge text (frame, id, x, y, w, h, confidence, -1, -1, -1; frames 1-based "
            + "from the stream's first frame; one line per confirmed track in an analysed frame; needs --detector). "
            + "coco: the same boxes as COCO detection results (images = analysed frames, id = frame number; "
            + "categories; annotations with score and track_id), written whole at the end. "
            + "geojson: the GPS track, sign positions and speeding stretches (RFC 7946). gpx: the GPS track with a "
            + "waypoint per sign. geojson and gpx need GPS telemetry.", batch: .singleRun)
    public static let motExport = OptionSpec(
        key: "report.mot", kind: .path, unset: "none",
        help: "Write the tracks in MOTChallenge text (as --export mot FILE).", batch: .singleRun)

    public static let cocoExport = OptionSpec(
        key: "report.coco", kind: .path, unset: "none",
        help: "Write the tracked boxes as COCO detection results (as --export coco FILE).", batch: .singleRun)

    static let exportOptions: [OptionSpec] = [export, motExport, cocoExport]
}
