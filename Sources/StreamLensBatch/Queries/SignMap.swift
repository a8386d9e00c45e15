import Foundation

/// `streamlens events --catalog X --geojson FILE`: one map of every speed-limit sign the batch's recordings passed,
/// as an RFC 7946 GeoJSON FeatureCollection of points.
///
/// Sightings of the same value and unit within ``mergeDistance`` metres of a sign already on the map are that sign:
/// they are taken in file then event order, each joins the nearest such sign (whose position becomes the mean of its
/// sightings) or starts a new one. Each point's properties: `kind` (`speed_limit`), `value`, `unit`, `count` (its
/// sightings), `files` (the recordings that passed it, in path order) and `first_file`/`first_time` (the first
/// sighting: file and stream time, seconds).
public struct SignMap: Sendable {
    /// Two sightings of one value this close are one sign, metres: a sign's position is where the vehicle was as it
    /// was passed, a few metres off the post and from one drive to the next (GPS error, lane, where the reader's last
    /// sighting was).
    public static let mergeDistance = 25.0

    /// One sign on the map.
    public struct Sign: Sendable, Equatable {
        public var value: Int
        public var unit: String
        public var latitude: Double
        public var longitude: Double
        public var sightings: [SignSighting]

        public var count: Int { sightings.count }
        public var files: [String] { Array(Set(sightings.map(\.file))).sorted() }
    }

    public let signs: [Sign]

    public init(sightings: [SignSighting]) {
        var signs: [Sign] = []
        let ordered = sightings.sorted { ($0.file, $0.sequence) < ($1.file, $1.sequence) }
        for sighting in ordered {
            let near = signs.indices.filter { signs[$0].value == sighting.value && signs[$0].unit == sighting.unit }
                .map { (index: $0, distance: Self.distance(signs[$0], sighting)) }
                .filter { $0.distance <= Self.mergeDistance }
                .min { $0.distance < $1.distance }
            if let near {
                signs[near.index].sightings.append(sighting)
                let all = signs[near.index].sightings
                signs[near.index].latitude = all.map(\.latitude).reduce(0, +) / Double(all.count)
                signs[near.index].longitude = all.map(\.longitude).reduce(0, +) / Double(all.count)
            } else {
                signs.append(Sign(
                    value: sighting.value, unit: sighting.unit, latitude: sighting.latitude,
                    longitude: sighting.longitude, sightings: [sighting]))
            }
        }
        self.signs = signs
    }

    /// Great-circle distance (haversine on the 6 371 008.8 m mean sphere), metres.
    static func distance(_ sign: Sign, _ sighting: SignSighting) -> Double {
        let radians = Double.pi / 180
        let dLat = (sighting.latitude - sign.latitude) * radians
        let dLon = (sighting.longitude - sign.longitude) * radians
        let a = sin(dLat / 2) * sin(dLat / 2)
            + cos(sign.latitude * radians) * cos(sighting.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_008.8 * asin(min(1, a.squareRoot()))
    }

    /// The map as GeoJSON text (positions `[lon, lat]`, seven decimals).
    public func geoJSON() -> String {
        func number(_ value: Double) -> String {
            let text = String(format: "%.7f", value)
            var trimmed = text
            while trimmed.hasSuffix("0") { trimmed.removeLast() }
            if trimmed.hasSuffix(".") { trimmed.removeLast() }
            return trimmed == "-0" ? "0" : trimmed
        }
        func string(_ text: String) -> String {
            String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
                .replacingOccurrences(of: "\\/", with: "/")
        }
        let features = signs.map { sign in
            let first = sign.sightings[0]
            return "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":["
                + "\(number(sign.longitude)),\(number(sign.latitude))]},\"properties\":{\"kind\":\"speed_limit\","
                + "\"value\":\(sign.value),\"unit\":\(string(sign.unit)),\"count\":\(sign.count),"
                + "\"files\":[\(sign.files.map(string).joined(separator: ","))],"
                + "\"first_file\":\(string(first.file)),\"first_time\":\(number(first.time))}}"
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }
}

extension EventQuery {
    /// The map of the signs passed in the files this query keeps (its ``fileGlob``; its type and format do not apply).
    public func signMap(on catalog: any BatchCatalog) async throws(CatalogError) -> SignMap {
        SignMap(sightings: try await catalog.signSightings().filter { matches($0.file) })
    }
}
