import StreamLensCore
import StreamLensGStreamer
import StreamLensSigns
import StreamLensTelemetry

/// `streamlenssigns`: the command line's speed-limit reader (`--speed-limits`) as an element, built by
/// ``SpeedLimitSetup``. Each sign, once passed (or at end-of-stream), becomes one `streamlens-speed-limit` element
/// message with the fields of the command line's event (value, unit, start, end, confidence, box, reads; latitude
/// and longitude where the sign was passed when the `gps` property names a track); the limit
/// in force rides on every buffer as a `speed_limit` region of interest (text and value: the speed, unit: its unit).
final class SignsElement: AnalysisElement, @unchecked Sendable {
    /// Name of the element message posted per sign.
    static let messageName = "streamlens-speed-limit"

    private var unit = SpeedLimitProfile.europe.unit

    init(element: ElementHandle) {
        super.init(element: element, rules: [
            PropertyRule("region", allowed: SpeedLimitSetup.regions.joined(separator: " or ")) { value in
                SpeedLimitProfile.named(value.stringValue ?? "") == nil ? "no such region" : nil
            },
        ])
    }

    override func makeStage() throws(ElementSetupError) -> (stage: any AnalysisStage, schedule: any AnalysisSchedule) {
        let element = element
        let events: EventLog
        do {
            // No file: the log's listener turns each sign's event into a bus message.
            events = try EventLog(path: nil) { event in
                guard let sign = event as? SpeedLimitEvent else { return }
                element.postMessage(named: Self.messageName, fields: Self.fields(of: sign))
            }
        } catch {
            throw ElementSetupError(.failed, "\(error)")
        }
        let locate = try locator()
        let stage: SpeedLimitStage
        do {
            stage = try SpeedLimitSetup.make(
                region: string("region") ?? "", minimumConfidence: double("confidence"), expiry: seconds("expiry"),
                events: events, subtitles: nil, textLineModel: TextLineModel(option: string("text-line-model")),
                locate: locate)
        } catch {
            // A region that does not exist is a wrong setting; anything else is a missing file (Tesseract's language
            // data, the text-line model).
            let problem: ElementHandle.Problem = if case .unknownRegion = error { .settings } else { .notFound }
            throw ElementSetupError(problem, "\(error)")
        }
        unit = stage.configuration.profile.unit
        return (stage, FixedIntervalSchedule(interval: seconds("interval")))
    }

    /// Where the vehicle was, from the `gps` property's track (GPX, NMEA, CSV or a GoPro file; `off` or `auto`: none,
    /// since an element does not know its input file), its first fix at stream time 0 plus `gps-offset`.
    private func locator() throws(ElementSetupError) -> SpeedLimitStage.Locator? {
        guard let path = string("gps"), path != "off", path != "auto", !path.isEmpty else { return nil }
        let track: GPSTrack
        do { track = try TrackLoader.load(path: path) } catch {
            throw ElementSetupError(.notFound, error.description)
        }
        let aligned = track.aligned(videoStartUTC: nil, videoDuration: nil, offset: double("gps-offset")).track
        let timeline = TrackTimeline(track: aligned)
        return { time in timeline.sample(at: time).map { GeoPosition(latitude: $0.latitude, longitude: $0.longitude) } }
    }

    override func extraFields(for detections: Detections) -> [StructureField] {
        guard let value = detections.items.first?.text.flatMap({ Int($0) }) else { return [] }
        return [StructureField("value", .int(value)), StructureField("unit", .string(unit))]
    }

    /// The message fields of one sign: the event's, with the box as a `GstValueArray` `<x, y, w, h>`.
    static func fields(of sign: SpeedLimitEvent) -> [StructureField] {
        [
            StructureField("value", .int(sign.value)),
            StructureField("unit", .string(sign.unit)),
            StructureField("start", .double(sign.start)),
            StructureField("end", .double(sign.end)),
            StructureField("confidence", .double(sign.confidence)),
            StructureField("box", .intArray(sign.box)),
            StructureField("reads", .int(sign.reads)),
        ] + (sign.position.map { [StructureField("latitude", .double($0.latitude)), StructureField("longitude", .double($0.longitude))] } ?? [])
    }
}
