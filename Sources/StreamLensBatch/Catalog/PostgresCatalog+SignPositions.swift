import Logging
import PostgresNIO

/// Where each sign was passed (`batch_sign_positions`): filled with a file's events by ``complete(path:worker:result:)``
/// and, once, from the events of a catalog written before the table existed.
extension PostgresCatalog {
    func setHasSignPositions(_ present: Bool) { hasSignPositions = present }

    /// Fills `batch_sign_positions` from the recorded `speed_limit` events, in one transaction.
    static func fillSignPositions(
        _ connection: PostgresConnection, creating table: PostgresQuery, logger: Logger
    ) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query(table, logger: logger)
            let rows = try await connection.query(
                "SELECT file, sequence, event FROM batch_events WHERE type = 'speed_limit' ORDER BY file, sequence",
                logger: logger)
            var sightings: [SignSighting] = []
            for try await (file, sequence, event) in rows.decode((String, Int64, String).self) {
                if let sighting = SignSighting(file: file, sequence: Int(sequence), event: event) { sightings.append(sighting) }
            }
            for sighting in sightings { try await insert(sighting, connection, logger: logger) }
        }
    }

    static func insert(_ sighting: SignSighting, _ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            INSERT INTO batch_sign_positions (file, sequence, value, unit, time, latitude, longitude)
            VALUES (\(sighting.file), \(Int64(sighting.sequence)), \(Int64(sighting.value)), \(sighting.unit),
                \(sighting.time), \(sighting.latitude), \(sighting.longitude))
            ON CONFLICT (file, sequence) DO NOTHING
            """, logger: logger)
    }

    public func signSightings() async throws(CatalogError) -> [SignSighting] {
        guard hasSignPositions else { return try await signSightingsFromEvents() }
        let logger = logger
        return try await transaction { connection in
            let rows = try await connection.query(
                """
                SELECT file, sequence, value, unit, time, latitude, longitude FROM batch_sign_positions
                ORDER BY file, sequence
                """, logger: logger)
            var sightings: [SignSighting] = []
            for try await (file, sequence, value, unit, time, latitude, longitude) in rows.decode(
                (String, Int64, Int64, String, Double, Double, Double).self)
            {
                sightings.append(SignSighting(
                    file: file, sequence: Int(sequence), value: Int(value), unit: unit, time: time, latitude: latitude,
                    longitude: longitude))
            }
            return sightings
        }
    }
}
