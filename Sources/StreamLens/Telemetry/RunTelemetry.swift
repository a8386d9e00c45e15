import Foundation
import StreamLensCompositing
import StreamLensCore
import StreamLensSigns
import StreamLensTelemetry
import Synchronization

/// The GPS side of one run: the track, read and aligned before the pipeline starts; where each sign was passed; and,
/// once the frames are through, the speeding events and the map exports.
///
/// ## Thread Safety
/// The track and timeline are immutable; the signs heard from the event log (any analysis thread) sit behind a
/// mutex whose critical section only appends or copies.
final class RunTelemetry: Sendable {
    let track: GPSTrack
    let timeline: TrackTimeline
    let alignment: GPSTrack.Alignment
    /// How long a read limit holds after its sign (the sign reader's expiry), seconds.
    let limitExpiry: Double
    let exports: [TelemetrySettings.Export]
    /// Every sign passed (a limit from its `end`), and those whose place is known (for the maps).
    private let heardSigns = Mutex<(limits: [SpeedingFinder.Limit], placed: [MapFeatures.Sign])>(([], []))
    private let finished = Mutex<DriveProfile?>(nil)

    private init(track: GPSTrack, alignment: GPSTrack.Alignment, limitExpiry: Double, exports: [TelemetrySettings.Export]) {
        self.track = track
        self.timeline = TrackTimeline(track: track)
        self.alignment = alignment
        self.limitExpiry = limitExpiry
        self.exports = exports
    }

    /// The run's telemetry, or nil when it has none (`--gps off`, or `auto` on an input without a GPMF track).
    /// A track named but unreadable, or exports asked for without a track, are errors.
    static func load(_ configuration: RunConfiguration) throws(RunError) -> RunTelemetry? {
        let settings = configuration.telemetry
        let key = settings.sourceSetIn?.key ?? "--gps"
        var videoPath: String?
        if case .file(let path) = configuration.input { videoPath = path }
        var track: GPSTrack?
        var clock = TrackLoader.VideoClock(startUTC: nil, duration: nil)
        do {
            switch settings.source {
            case .off:
                break
            case .auto:
                // Looking is all `auto` does: an input whose container is damaged is the input's problem, said by
                // the pipeline in its own words, not a GPS error.
                if let videoPath, FileManager.default.isReadableFile(atPath: videoPath),
                    let found = try? TrackLoader.embedded(inVideo: videoPath)
                {
                    (track, clock) = found
                }
            case .file(let path):
                track = try TrackLoader.load(path: path)
                if let videoPath, let found = try? TrackLoader.embedded(inVideo: videoPath) { clock = found.clock }
            }
        } catch {
            throw .invalidConfiguration(file: settings.sourceSetIn?.file, key: key, problem: error.description)
        }
        guard let track else {
            if let export = settings.exports.first {
                let reason = settings.source == .off ? "--gps is off" : "the input has no GoPro GPMF track"
                throw .invalidConfiguration(
                    file: nil, key: "--export",
                    problem: "\(export.kind) needs GPS telemetry but \(reason); give --gps FILE (GPX, NMEA, CSV)")
            }
            return nil
        }
        let aligned = track.aligned(videoStartUTC: clock.startUTC, videoDuration: clock.duration, offset: settings.offset)
        let expiry = configuration.speedLimits?.expiry ?? SpeedLimitOptions().expiry
        return RunTelemetry(
            track: aligned.track, alignment: aligned.alignment,
            limitExpiry: Double(expiry.components.seconds) + Double(expiry.components.attoseconds) * 1e-18,
            exports: settings.exports)
    }

    /// One line for the start of the run: what was read and how it lines up.
    var summary: String {
        let how: String = switch alignment {
        case .streamTime: "on the video's own clock"
        case .utc: "aligned by UTC with the video's creation time"
        case .firstFix: "from the video's start (no shared clock)"
        }
        let skipped = track.skipped > 0 ? ", \(track.skipped) unreadable record(s) skipped" : ""
        return "gps: \(timeline.points.count) fixes (\(track.source.rawValue)) \(how)\(skipped)"
    }

    /// Where the vehicle was at a stream time, if known.
    func position(at streamTime: Double) -> GeoPosition? {
        timeline.sample(at: streamTime).map { GeoPosition(latitude: $0.latitude, longitude: $0.longitude) }
    }

    /// ``position(at:)`` for the sign reader.
    var locator: SpeedLimitStage.Locator {
        let timeline = timeline
        return { time in timeline.sample(at: time).map { GeoPosition(latitude: $0.latitude, longitude: $0.longitude) } }
    }

    /// The speed beside the limit badge, red over the same tolerance as `speeding` events.
    func speedReadout(unit: String) -> SpeedReadoutAnnotator.Source {
        let timeline = timeline
        let rule = SpeedingFinder.Rule()
        return SpeedReadoutAnnotator.Source(
            unit: unit, speed: { pts in timeline.sample(at: pts.seconds)?.speed },
            tolerance: { limit in rule.tolerance(limit: limit, unit: unit) })
    }

    /// The speed for the subtitles: at a stream time, in a sign's unit.
    var subtitleSpeed: WebVTTWriter.SpeedSource {
        let timeline = timeline
        return { time, unit in timeline.sample(at: time)?.speed.map { Geodesy.speed($0, in: unit) } }
    }

    /// ``heard(_:)`` for the event log.
    var listener: EventLog.Listener { { [self] event in heard(event) } }

    /// Hears every event written; keeps the signs (with their positions) for speeding and the maps.
    func heard(_ event: any Encodable) {
        guard let sign = event as? SpeedLimitEvent else { return }
        heardSigns.withLock { heard in
            heard.limits.append(.init(value: sign.value, unit: sign.unit, time: sign.end))
            if let position = sign.position {
                heard.placed.append(
                    .init(value: sign.value, unit: sign.unit, start: sign.start, end: sign.end, position: position))
            }
        }
    }

    /// The drive over the video for the HTML report, once ``finish(streamStart:streamEnd:events:)`` ran.
    var profile: DriveProfile? { finished.withLock { $0 } }

    /// Writes the speeding events into `events` and the exports, and keeps the drive's ``profile``; returns the
    /// exports that could not be written (path, reason). `streamStart` and `streamEnd` are the video's span (the
    /// first frame's stream time, the end of the last frame); they bound the looks at the limit.
    func finish(streamStart: Double?, streamEnd: Double?, events: EventLog) -> [(path: String, reason: String)] {
        let (limits, passed) = heardSigns.withLock { $0 }
        let stretches = SpeedingFinder.stretches(timeline: timeline, limits: limits, expiry: limitExpiry, until: streamEnd)
        for stretch in stretches { events.emit(stretch.event) }
        if let end = streamEnd ?? timeline.end {
            let profile = DriveProfile(
                timeline: timeline, limits: limits, expiry: limitExpiry, signs: passed, speeding: stretches,
                start: min(streamStart ?? 0, end), end: end)
            finished.withLock { $0 = profile }
        }
        let features = MapFeatures(
            track: timeline.points, signs: passed, speeding: stretches, utcOfStreamZero: track.utcOfStreamZero)
        var failures: [(path: String, reason: String)] = []
        for export in exports {
            do {
                switch export.kind {
                case "gpx": try GPXWriter.write(features, to: export.path)
                default: try GeoJSONWriter.write(features, to: export.path)
                }
            } catch {
                failures.append((export.path, error.description))
            }
        }
        return failures
    }
}
