import Foundation

/// A drive as GPX 1.1: a waypoint (`wpt`) for each sign passed (`name` "60 km/h", `type` speed_limit, `desc` with its
/// stream time) and a waypoint at the start of each speeding stretch (`type` speeding), then the track (`trk`), one
/// `trkseg` per segment between dropouts. Times (`time`) are written when the track carried UTC.
public enum GPXWriter {
    public static func document(_ features: MapFeatures) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<gpx version="1.1" creator="StreamLens" xmlns="http://www.topografix.com/GPX/1/1">"#,
        ]
        func utc(_ streamTime: Double) -> String? { features.utcOfStreamZero.map { iso8601($0 + streamTime) } }
        func coordinates(_ latitude: Double, _ longitude: Double) -> String {
            #"lat="\#(number(latitude, 7))" lon="\#(number(longitude, 7))""#
        }
        for sign in features.signs {
            lines.append("  <wpt \(coordinates(sign.position.latitude, sign.position.longitude))>")
            if let time = utc(sign.end) { lines.append("    <time>\(time)</time>") }
            lines.append("    <name>\(sign.value) \(escape(sign.unit))</name>")
            lines.append("    <desc>speed limit sign passed at \(number(sign.end, 3)) s of the video</desc>")
            lines.append("    <type>speed_limit</type>")
            lines.append("  </wpt>")
        }
        for stretch in features.speeding {
            guard let start = stretch.path.first else { continue }
            let event = stretch.event
            lines.append("  <wpt \(coordinates(start.latitude, start.longitude))>")
            if let time = utc(stretch.start) { lines.append("    <time>\(time)</time>") }
            lines.append("    <name>speeding: \(number(event.maxSpeed, 1)) in \(event.limit) \(escape(event.unit))</name>")
            lines.append(
                "    <desc>\(number(event.start, 3))–\(number(event.end, 3)) s of the video, up to \(number(event.maxExcess, 1)) "
                    + "\(escape(event.unit)) over</desc>")
            lines.append("    <type>speeding</type>")
            lines.append("  </wpt>")
        }
        lines.append("  <trk>")
        lines.append("    <name>StreamLens track</name>")
        for segment in features.segments {
            lines.append("    <trkseg>")
            for point in segment {
                var inner = ""
                if let altitude = point.altitude { inner += "<ele>\(number(altitude, 3))</ele>" }
                if let time = utc(point.time) { inner += "<time>\(time)</time>" }
                lines.append("      <trkpt \(coordinates(point.latitude, point.longitude))>\(inner)</trkpt>")
            }
            lines.append("    </trkseg>")
        }
        lines.append("  </trk>")
        lines.append("</gpx>")
        return lines.joined(separator: "\n") + "\n"
    }

    public static func write(_ features: MapFeatures, to path: String) throws(TelemetryError) {
        do { try document(features).write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw .cannotWrite(path: path, reason: error.localizedDescription)
        }
    }

    static func number(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// `2024-05-01T10:20:30.250Z`.
    static func iso8601(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        let days = Int((Double(milliseconds) / 86_400_000).rounded(.down))
        var rest = milliseconds - days * 86_400_000
        let hour = rest / 3_600_000
        rest -= hour * 3_600_000
        let minute = rest / 60_000
        rest -= minute * 60_000
        let (year, month, day) = civil(days: days)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", year, month, day, hour, minute, rest / 1000, rest % 1000)
    }

    /// The civil date of a day count since 1970 (inverse of ``UTCTime/days(year:month:day:)``).
    static func civil(days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
