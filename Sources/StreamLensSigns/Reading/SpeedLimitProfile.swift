/// Which speed values exist on signs in a region, and their unit: reads outside the set are discarded.
public struct SpeedLimitProfile: Sendable, Equatable {
    /// Short name used in configuration (`eu`, `us`).
    public var name: String
    /// Every value a sign of this region can show.
    public var allowedValues: Set<Int>
    /// Unit written in events and subtitles.
    public var unit: String

    public init(name: String, allowedValues: Set<Int>, unit: String) {
        precondition(!allowedValues.isEmpty, "a profile needs at least one allowed value")
        self.name = name
        self.allowedValues = allowedValues
        self.unit = unit
    }

    /// European round signs: 5 (walking pace zones) and 10…130 km/h in steps of 10.
    public static let europe = SpeedLimitProfile(
        name: "eu", allowedValues: Set([5] + Array(stride(from: 10, through: 130, by: 10))), unit: "km/h")

    /// United States: 5…85 mph in steps of 5.
    public static let unitedStates = SpeedLimitProfile(
        name: "us", allowedValues: Set(stride(from: 5, through: 85, by: 5)), unit: "mph")

    /// The built-in profile called `name` (`eu`, `us`), or nil.
    public static func named(_ name: String) -> SpeedLimitProfile? {
        switch name.lowercased() {
        case "eu", "europe": .europe
        case "us", "usa", "united-states": .unitedStates
        default: nil
        }
    }

    /// Whether a sign of this region can show `value`.
    public func allows(_ value: Int) -> Bool { allowedValues.contains(value) }
}
