/// GPX 1.0 and 1.1 tracks: every `trkpt` (and `rtept` when the file has no track) with its `lat`/`lon`, `ele`,
/// `time` (ISO 8601 UTC) and a speed in metres per second when the file carries one — GPX 1.0's `<speed>`, or an
/// extension element named `speed` (Garmin's `gpxtpx:speed`, OsmAnd's `speed`). `fix` `none` marks a point without
/// a fix; `hdop` is its precision.
public enum GPXReader {
    public static func track(from text: String, path: String) throws(TelemetryError) -> GPSTrack {
        let events: [XMLScanner.Event]
        do { events = try XMLScanner.events(in: text) } catch {
            guard case .unterminated(let what) = error else { throw .unknownFormat(path: path) }
            throw .cannotRead(path: path, reason: "its XML has an unterminated \(what)")
        }
        var trackPoints: [GeoFix] = []
        var routePoints: [GeoFix] = []
        var point: GeoFix?
        var pointKind = ""
        var element: String?
        var skipped = 0
        for event in events {
            switch event {
            case .start(let name, let attributes) where name == "trkpt" || name == "rtept":
                if let latitude = attributes["lat"].flatMap(Double.init),
                    let longitude = attributes["lon"].flatMap(Double.init),
                    (-90...90).contains(latitude), (-180...180).contains(longitude)
                {
                    point = GeoFix(latitude: latitude, longitude: longitude)
                } else {
                    skipped += 1
                    point = nil
                }
                pointKind = name
            case .start(let name, _):
                element = name
            case .text(let text):
                guard point != nil, let element else { continue }
                let value = text.trimmingWhitespace
                switch element {
                case "ele": point?.altitude = Double(value)
                case "time": point?.utc = UTCTime.iso8601(value)
                case "speed": point?.speed = Double(value)
                case "hdop": point?.precision = Double(value)
                case "fix": point?.fix = value == "none" ? 0 : value == "2d" ? 2 : 3
                default: break
                }
            case .end(let name):
                element = nil
                guard name == pointKind, let finished = point else { continue }
                if name == "trkpt" { trackPoints.append(finished) } else { routePoints.append(finished) }
                point = nil
            }
        }
        return GPSTrack(source: .gpx, fixes: trackPoints.isEmpty ? routePoints : trackPoints, skipped: skipped)
    }
}
