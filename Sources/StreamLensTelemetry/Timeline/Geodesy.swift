import Foundation

/// Distances on the WGS84 mean sphere: plenty for speeds between fixes metres apart.
public enum Geodesy {
    /// Mean Earth radius (IUGG), metres.
    public static let earthRadius = 6_371_008.8

    /// Great-circle distance between two points (haversine), metres.
    public static func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        let toRadians = Double.pi / 180
        let dLat = (latitude2 - latitude1) * toRadians
        let dLon = (longitude2 - longitude1) * toRadians
        let a = sin(dLat / 2) * sin(dLat / 2)
            + cos(latitude1 * toRadians) * cos(latitude2 * toRadians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, a.squareRoot()))
    }

    /// Metres per second in km/h or mph.
    public static func speed(_ metresPerSecond: Double, in unit: String) -> Double {
        unit == "mph" ? metresPerSecond * 3600 / 1609.344 : metresPerSecond * 3.6
    }
}
