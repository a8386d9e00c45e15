import StreamLensCore

/// Builds a ready ``SpeedLimitStage`` from what a user writes (a region name, a confidence, an expiry): the one
/// place the command line's stage assembly and the `streamlenssigns` GStreamer element both build it.
public enum SpeedLimitSetup {
    /// Why the stage could not be built; each reads as one line naming what to change.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The region is not one of ``regions``.
        case unknownRegion(String)
        /// Tesseract's language data or the text-line model is missing: the error's own text says what to install.
        case engineUnavailable(String)

        public var description: String {
            switch self {
            case .unknownRegion(let region):
                "unknown speed-limit region '\(region)': use \(SpeedLimitSetup.regions.joined(separator: " or "))"
            case .engineUnavailable(let reason): reason
            }
        }
    }

    /// The region names ``make(region:minimumConfidence:expiry:events:subtitles:)`` accepts.
    public static let regions = ["eu", "us"]

    /// The stage for signs of `region`, with Tesseract's language file and the text-line model found now so that a
    /// missing one is one clear error before any frame flows.
    public static func make(
        region: String, minimumConfidence: Double, expiry: Duration, events: EventLog?, subtitles: WebVTTWriter?,
        textLineModel: TextLineModel = .installed, locate: SpeedLimitStage.Locator? = nil
    ) throws(Failure) -> SpeedLimitStage {
        guard let profile = SpeedLimitProfile.named(region) else { throw .unknownRegion(region) }
        let stage = SpeedLimitStage(
            configuration: SpeedLimitConfiguration(
                profile: profile, minimumConfidence: minimumConfidence, limitExpiry: expiry,
                textLineModel: textLineModel),
            events: events, subtitles: subtitles, locate: locate)
        do { try stage.prepare() } catch { throw .engineUnavailable("\(error)") }
        return stage
    }
}
