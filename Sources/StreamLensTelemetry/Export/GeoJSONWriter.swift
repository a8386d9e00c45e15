import Foundation

/// A drive as a GeoJSON FeatureCollection (RFC 7946; positions `[longitude, latitude]`, WGS84):
/// - the track: one `LineString` per segment between dropouts (`"kind":"track"`), a lone fix a `Point`;
/// - each sign passed: a `Point` with `"kind":"speed_limit"`, `value`, `unit`, `start`, `end` (stream seconds);
/// - each speeding stretch: a `LineString` of its looks with `"kind":"speeding"`, `start`, `end`, `limit`, `unit`,
///   `max_speed`, `max_excess`, `mean_excess`.
public enum GeoJSONWriter {
    public static func document(_ features: MapFeatures) -> Data {
        var list: [JSONValue] = []
        for segment in features.segments {
            let coordinates = segment.map { position($0.latitude, $0.longitude) }
            list.append(feature(
                geometry: coordinates.count == 1 ? point(coordinates[0]) : line(coordinates),
                properties: [
                    "kind": .string("track"), "start": .number(round(segment.first!.time, 3)),
                    "end": .number(round(segment.last!.time, 3)),
                ]))
        }
        for sign in features.signs {
            list.append(feature(
                geometry: point(position(sign.position.latitude, sign.position.longitude)),
                properties: [
                    "kind": .string("speed_limit"), "value": .number(Double(sign.value)), "unit": .string(sign.unit),
                    "start": .number(round(sign.start, 3)), "end": .number(round(sign.end, 3)),
                ]))
        }
        for stretch in features.speeding {
            let event = stretch.event
            list.append(feature(
                geometry: line(stretch.path.map { position($0.latitude, $0.longitude) }),
                properties: [
                    "kind": .string("speeding"), "start": .number(event.start), "end": .number(event.end),
                    "limit": .number(Double(event.limit)), "unit": .string(event.unit),
                    "max_speed": .number(event.maxSpeed), "max_excess": .number(event.maxExcess),
                    "mean_excess": .number(event.meanExcess),
                ]))
        }
        return collection(list)
    }

    /// Points with their properties as a FeatureCollection (the batch's map of signs).
    public static func points(
        _ points: [(latitude: Double, longitude: Double, properties: [String: JSONValue])]
    ) -> Data {
        collection(points.map { feature(geometry: point(position($0.latitude, $0.longitude)), properties: $0.properties) })
    }

    private static func collection(_ features: [JSONValue]) -> Data {
        let collection = JSONValue.object(["type": .string("FeatureCollection"), "features": .array(features)])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(collection)) ?? Data()
    }

    public static func write(_ features: MapFeatures, to path: String) throws(TelemetryError) {
        do { try document(features).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw .cannotWrite(path: path, reason: error.localizedDescription)
        }
    }

    private static func round(_ value: Double, _ decimals: Int) -> Double { GeoPosition.round(value, decimals) }

    private static func position(_ latitude: Double, _ longitude: Double) -> JSONValue {
        .array([.number(round(longitude, 7)), .number(round(latitude, 7))])
    }

    private static func point(_ coordinates: JSONValue) -> JSONValue {
        .object(["type": .string("Point"), "coordinates": coordinates])
    }

    private static func line(_ coordinates: [JSONValue]) -> JSONValue {
        .object(["type": .string("LineString"), "coordinates": .array(coordinates)])
    }

    private static func feature(geometry: JSONValue, properties: [String: JSONValue]) -> JSONValue {
        .object(["type": .string("Feature"), "geometry": geometry, "properties": .object(properties)])
    }
}

/// A JSON value, for documents whose shape varies by feature.
public enum JSONValue: Encodable, Equatable, Sendable {
    case string(String)
    case number(Double)
    case array([JSONValue])
    case object([String: JSONValue])

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 { try container.encode(Int(value)) } else { try container.encode(value) }
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
