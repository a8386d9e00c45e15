import Foundation

/// A JSON value, for the stage-specific parts of a report (`stage_details`): each stage describes itself (breaker
/// trips, cache bytes, OCR times…) without the report schema having to know every stage.
public enum ReportValue: Codable, Sendable, Equatable {
    case number(Double)
    case string(String)
    case bool(Bool)
    case array([ReportValue])
    case object([String: ReportValue])
    case null

    /// Converts any Encodable value (through its JSON form); nil when it does not encode.
    public init?(encoding value: some Encodable) {
        guard let data = try? JSONEncoder().encode(value),
            let decoded = try? JSONDecoder().decode(ReportValue.self, from: data)
        else { return nil }
        self = decoded
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ReportValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ReportValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
