/// One position report from a GPS receiver, as read from a file, before any smoothing.
///
/// Units are SI and WGS84 throughout: degrees, metres, metres per second. A value the source does not carry is nil
/// (never zero).
public struct GeoFix: Sendable, Equatable {
    /// Stream time of the fix, seconds on the video's timeline (the container's own, as events use); nil until the
    /// track is aligned with the video (a GPX, NMEA or CSV file carries UTC times only).
    public var time: Double?
    /// UTC time, seconds since 1970-01-01; nil when the source has no date.
    public var utc: Double?
    /// WGS84 latitude and longitude, degrees.
    public var latitude: Double
    public var longitude: Double
    /// Altitude, metres (above the ellipsoid for GPMF, above sea level for NMEA and GPX, as the source says).
    public var altitude: Double?
    /// Ground (2D) speed reported by the receiver, metres per second.
    public var speed: Double?
    /// Fix type: 0 none, 2 two-dimensional, 3 three-dimensional (GPMF GPSF, NMEA GGA quality mapped); nil: unknown.
    public var fix: Int?
    /// Dilution of precision (GPMF GPSP / 100, NMEA GGA HDOP); nil: unknown.
    public var precision: Double?

    public init(
        time: Double? = nil, utc: Double? = nil, latitude: Double, longitude: Double, altitude: Double? = nil,
        speed: Double? = nil, fix: Int? = nil, precision: Double? = nil
    ) {
        self.time = time
        self.utc = utc
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.speed = speed
        self.fix = fix
        self.precision = precision
    }

    /// Whether the receiver said it had a position: a fix type of 2 or 3, or no fix type at all.
    public var hasFix: Bool { (fix ?? 3) >= 2 }
}
