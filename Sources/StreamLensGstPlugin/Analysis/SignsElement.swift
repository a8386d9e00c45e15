import StreamLensCore
import StreamLensGStreamer
import StreamLensSigns

/// `streamlenssigns`: the command line's speed-limit reader (`--speed-limits`) as an element, built by
/// ``SpeedLimitSetup``. Each sign, once passed (or at end-of-stream), becomes one `streamlens-speed-limit` element
/// message with the fields of the command line's event (value, unit, start, end, confidence, box, reads); the limit
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
        let stage: SpeedLimitStage
        do {
            stage = try SpeedLimitSetup.make(
                region: string("region") ?? "", minimumConfidence: double("confidence"), expiry: seconds("expiry"),
                events: events, subtitles: nil, textLineModel: TextLineModel(option: string("text-line-model")))
        } catch {
            // A region that does not exist is a wrong setting; anything else is a missing file (Tesseract's language
            // data, the text-line model).
            let problem: ElementHandle.Problem = if case .unknownRegion = error { .settings } else { .notFound }
            throw ElementSetupError(problem, "\(error)")
        }
        unit = stage.configuration.profile.unit
        return (stage, FixedIntervalSchedule(interval: seconds("interval")))
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
        ]
    }
}
