/// A WGS84 position as events and exports write it: `{"lat":…,"lon":…}`, seven decimals (about a centimetre).
public struct GeoPosition: Codable, Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    enum CodingKeys: String, CodingKey {
        case latitude = "lat"
        case longitude = "lon"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.round(latitude, 7), forKey: .latitude)
        try container.encode(Self.round(longitude, 7), forKey: .longitude)
    }

    static func round(_ value: Double, _ decimals: Int) -> Double {
        let scale = pow10(decimals)
        return (value * scale).rounded() / scale
    }

    static func pow10(_ decimals: Int) -> Double { (0..<decimals).reduce(1.0) { value, _ in value * 10 } }
}

/// A `speeding` event (`--events`): the speed stayed above the limit plus the tolerance for at least 3 s.
public struct SpeedingEvent: Codable, Sendable, Equatable {
    public var type = "speeding"
    /// Stream time of the first and last look over the limit, seconds (millisecond precision).
    public var start: Double
    public var end: Double
    /// The limit in force and its unit.
    public var limit: Int
    public var unit: String
    /// Highest speed, and the highest and mean speed above the limit, in ``unit`` (one decimal).
    public var maxSpeed: Double
    public var maxExcess: Double
    public var meanExcess: Double
    /// Where the stretch started and ended; nil never happens for a stretch of looks with positions.
    public var position: GeoPosition?
    public var endPosition: GeoPosition?

    enum CodingKeys: String, CodingKey {
        case type, start, end, limit, unit, position
        case maxSpeed = "max_speed"
        case maxExcess = "max_excess"
        case meanExcess = "mean_excess"
        case endPosition = "end_position"
    }

    public init(
        start: Double, end: Double, limit: Int, unit: String, maxSpeed: Double, maxExcess: Double, meanExcess: Double,
        position: GeoPosition?, endPosition: GeoPosition?
    ) {
        self.start = GeoPosition.round(start, 3)
        self.end = GeoPosition.round(end, 3)
        self.limit = limit
        self.unit = unit
        self.maxSpeed = GeoPosition.round(maxSpeed, 1)
        self.maxExcess = GeoPosition.round(maxExcess, 1)
        self.meanExcess = GeoPosition.round(meanExcess, 1)
        self.position = position
        self.endPosition = endPosition
    }
}
