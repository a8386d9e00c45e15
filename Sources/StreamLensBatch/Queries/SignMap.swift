import Foundation
import StreamLensTelemetry

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

    static func distance(_ sign: Sign, _ sighting: SignSighting) -> Double {
        Geodesy.distance(
            latitude1: sign.latitude, longitude1: sign.longitude, latitude2: sighting.latitude,
            longitude2: sighting.longitude)
    }

    /// The map as GeoJSON (positions `[lon, lat]`, seven decimals).
    public func geoJSON() -> Data {
        GeoJSONWriter.points(signs.map { sign in
            let first = sign.sightings[0]
            return (sign.latitude, sign.longitude, [
                "kind": .string("speed_limit"), "value": .number(Double(sign.value)), "unit": .string(sign.unit),
                "count": .number(Double(sign.count)), "files": .array(sign.files.map { .string($0) }),
                "first_file": .string(first.file), "first_time": .number(first.time),
            ])
        })
    }
}

extension EventQuery {
    /// The map of the signs passed in the files this query keeps (its ``fileGlob``; its type and format do not apply).
    public func signMap(on catalog: any BatchCatalog) async throws(CatalogError) -> SignMap {
        SignMap(sightings: try await catalog.signSightings().filter { matches($0.file) })
    }
}
