import Foundation

/// A speed-limit sign one recording passed, and where: a `speed_limit` event that carries a `position` (the run had
/// GPS telemetry). The catalog keeps these in `batch_sign_positions`, beside the events they come from.
public struct SignSighting: Sendable, Equatable {
    public var file: String
    /// The event's place in its file's event log.
    public var sequence: Int
    public var value: Int
    public var unit: String
    /// Stream time the sign was passed (the event's `end`), seconds.
    public var time: Double
    public var latitude: Double
    public var longitude: Double

    public init(file: String, sequence: Int, value: Int, unit: String, time: Double, latitude: Double, longitude: Double) {
        self.file = file
        self.sequence = sequence
        self.value = value
        self.unit = unit
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The sighting in one event line, or nil when it is not a `speed_limit` event with a position.
    public init?(file: String, sequence: Int, event json: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            object["type"] as? String == "speed_limit", let value = (object["value"] as? NSNumber)?.intValue,
            let position = object["position"] as? [String: Any],
            let latitude = (position["lat"] as? NSNumber)?.doubleValue,
            let longitude = (position["lon"] as? NSNumber)?.doubleValue,
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        self.init(
            file: file, sequence: sequence, value: value, unit: object["unit"] as? String ?? "km/h",
            time: (object["end"] as? NSNumber)?.doubleValue ?? 0, latitude: latitude, longitude: longitude)
    }

    /// The sightings among a file's events (in emission order, as ``FileResult/events`` holds them).
    static func all(file: String, events: [String]) -> [SignSighting] {
        events.enumerated().compactMap { sequence, event in SignSighting(file: file, sequence: sequence, event: event) }
    }
}
