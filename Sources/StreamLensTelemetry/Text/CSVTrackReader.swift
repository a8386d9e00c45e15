/// A CSV track: `time,lat,lon[,speed]`, comma- or semicolon-separated, an optional header row naming the columns
/// (`time`/`timestamp`/`t`, `lat`/`latitude`, `lon`/`lng`/`longitude`, `speed` in m/s or `speed_kmh` in km/h, `ele`/
/// `alt`). A time is ISO 8601 UTC (`2024-05-01T10:20:30Z`) or a number of seconds of stream time (the video's own
/// timeline: then no alignment is needed). Rows that do not parse are skipped and counted.
public enum CSVTrackReader {
    public static func track(from text: String) -> GPSTrack {
        var columns = (time: 0, latitude: 1, longitude: 2, speed: 3 as Int?, speedScale: 1.0, altitude: nil as Int?)
        var fixes: [GeoFix] = []
        var skipped = 0
        var first = true
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingWhitespace
            if line.isEmpty || line.hasPrefix("#") { continue }
            let separator: Character = line.contains(";") && !line.contains(",") ? ";" : ","
            let fields = line.split(separator: separator, omittingEmptySubsequences: false).map { $0.trimmingWhitespace }
            if first {
                first = false
                let names = fields.map { $0.lowercased() }
                if names.contains(where: { ["lat", "latitude"].contains($0) }) {
                    func column(_ options: [String]) -> Int? { names.firstIndex { options.contains($0) } }
                    columns.time = column(["time", "timestamp", "t", "utc"]) ?? 0
                    columns.latitude = column(["lat", "latitude"]) ?? 1
                    columns.longitude = column(["lon", "lng", "long", "longitude"]) ?? 2
                    if let kmh = column(["speed_kmh", "speed_km_h"]) {
                        columns.speed = kmh
                        columns.speedScale = 1 / 3.6
                    } else {
                        columns.speed = column(["speed", "speed_ms", "speed_m_s"])
                    }
                    columns.altitude = column(["ele", "alt", "altitude", "elevation"])
                    continue
                }
            }
            guard fields.count > max(columns.time, columns.latitude, columns.longitude),
                let latitude = Double(fields[columns.latitude]), let longitude = Double(fields[columns.longitude]),
                (-90...90).contains(latitude), (-180...180).contains(longitude)
            else {
                skipped += 1
                continue
            }
            var fix = GeoFix(latitude: latitude, longitude: longitude)
            let time = fields[columns.time]
            if let seconds = Double(time) { fix.time = seconds } else if let utc = UTCTime.iso8601(time) { fix.utc = utc }
            else {
                skipped += 1
                continue
            }
            if let speedColumn = columns.speed, speedColumn < fields.count, let speed = Double(fields[speedColumn]) {
                fix.speed = speed * columns.speedScale
            }
            if let altitudeColumn = columns.altitude, altitudeColumn < fields.count {
                fix.altitude = Double(fields[altitudeColumn])
            }
            fixes.append(fix)
        }
        return GPSTrack(source: .csv, fixes: fixes, skipped: skipped)
    }
}
