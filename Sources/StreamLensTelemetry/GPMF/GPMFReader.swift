/// Position fixes from GoPro GPMF payloads: the `GPS9` stream (per-sample UTC, precision and fix), else `GPS5` (with
/// the stream's `GPSU` time, `GPSF` fix and `GPSP` precision), else a Karma drone's `GPRI`. Values are divided by the
/// stream's `SCAL` (one divisor for all elements, or one each); a complex `GPRI`/`GPS9` sample is laid out by the
/// stream's `TYPE`.
///
/// A payload's samples are spread evenly over the payload's time in the metadata track: sample `i` of `n` in a
/// payload starting at `s` lasting `d` is at `s + d·i/n` (the camera writes one payload a second at a steady rate).
public enum GPMFReader {
    /// The GPS streams, best first: a file with several uses only the first it has.
    static let streams = ["GPS9", "GPS5", "GPRI"]

    /// One payload: its bytes and its time in the metadata track.
    public struct Payload: Sendable {
        public var bytes: [UInt8]
        public var start: Double
        public var duration: Double

        public init(bytes: [UInt8], start: Double, duration: Double) {
            self.bytes = bytes
            self.start = start
            self.duration = duration
        }
    }

    /// The fixes of all payloads, in order, from the best GPS stream they hold.
    public static func fixes(in payloads: [Payload]) throws(TelemetryError) -> [GeoFix] {
        var byStream: [String: [GeoFix]] = [:]
        for payload in payloads {
            for (key, fixes) in try fixesByStream(in: payload) { byStream[key, default: []] += fixes }
        }
        return streams.lazy.compactMap { byStream[$0] }.first ?? []
    }

    /// The fixes of one payload, per GPS stream key.
    static func fixesByStream(in payload: Payload) throws(TelemetryError) -> [String: [GeoFix]] {
        var result: [String: [GeoFix]] = [:]
        for device in try KLV.parse(payload.bytes) where device.key == "DEVC" {
            for stream in device.children where stream.key == "STRM" {
                guard let data = stream.children.last(where: { streams.contains($0.key) }) else { continue }
                let fixes = try read(data, in: stream, payload: payload)
                result[data.key, default: []] += fixes
            }
        }
        return result
    }

    private static func read(_ data: KLV, in stream: KLV, payload: Payload) throws(TelemetryError) -> [GeoFix] {
        func item(_ key: String) -> KLV? { stream.children.first { $0.key == key } }
        let complexType = item("TYPE")?.text
        guard let rows = data.rows(complexType: complexType) else {
            throw .malformedGPMF(detail: "'\(data.key)' samples of \(data.structSize) bytes do not match their type")
        }
        let scales = item("SCAL")?.numbers ?? []
        let scaled = rows.map { row in
            row.enumerated().map { index, value in
                let scale = scales.isEmpty ? 1 : scales.count == 1 ? scales[0] : index < scales.count ? scales[index] : 1
                return scale != 0 ? value / scale : value
            }
        }
        let count = scaled.count
        let step = count > 0 ? payload.duration / Double(count) : 0
        let gpsu = item("GPSU").flatMap { UTCTime.gpsu($0.text) }
        let streamFix = item("GPSF")?.numbers.first.map { Int($0) }
        let streamPrecision = item("GPSP")?.numbers.first.map { $0 / 100 }
        return scaled.enumerated().compactMap { index, row -> GeoFix? in
            let time = payload.start + step * Double(index)
            switch data.key {
            case "GPS9":
                // lat, lon, alt, 2D speed, 3D speed, days since 2000, seconds of the day, DOP, fix.
                guard row.count >= 9 else { return nil }
                let utc = 946_684_800 + row[5] * 86_400 + row[6]
                return GeoFix(
                    time: time, utc: utc, latitude: row[0], longitude: row[1], altitude: row[2], speed: row[3],
                    fix: Int(row[8]), precision: row[7])
            case "GPS5":
                // lat, lon, alt, 2D speed, 3D speed.
                guard row.count >= 5 else { return nil }
                return GeoFix(
                    time: time, utc: gpsu.map { $0 + step * Double(index) }, latitude: row[0], longitude: row[1],
                    altitude: row[2], speed: row[3], fix: streamFix, precision: streamPrecision)
            default:
                // GPRI (MAVLink GPS_RAW_INT): time, lat, lon, alt, eph, epv, ground speed, course, fix, satellites.
                guard row.count >= 9 else { return nil }
                return GeoFix(
                    time: time, latitude: row[1], longitude: row[2], altitude: row[3], speed: row[6], fix: Int(row[8]),
                    precision: row[4])
            }
        }
    }
}

extension GPMFReader {
    /// The GPMF track of an MP4/MOV file; nil when the file is an MP4/MOV without one. Also the video's creation time
    /// and duration, for aligning other tracks by UTC.
    public static func track(inVideo path: String) throws(TelemetryError) -> (track: GPSTrack?, start: Double?, duration: Double?) {
        let file = try MP4File(path: path)
        guard file.isISOBMFF, let movie = file.movie else { return (nil, nil, nil) }
        let header: MetadataTrack.MovieHeader?
        let metadata: MetadataTrack?
        do {
            header = try MetadataTrack.movieHeader(in: movie)
            metadata = try MetadataTrack.find(in: movie)
        } catch {
            guard case .broken(let detail) = error else { throw .malformedContainer(path: path, detail: "\(error)") }
            throw .malformedContainer(path: path, detail: detail)
        }
        guard let metadata else { return (nil, header?.creationUTC, header?.duration) }
        guard let handle = FileHandleReader(path: path) else { throw .cannotRead(path: path, reason: "it cannot be opened") }
        var payloads: [Payload] = []
        for sample in metadata.samples {
            let bytes = try handle.read(offset: sample.offset, count: sample.size)
            payloads.append(Payload(bytes: bytes, start: sample.start, duration: sample.duration))
        }
        let fixes = try fixes(in: payloads)
        return (GPSTrack(source: .gpmf, fixes: fixes), header?.creationUTC, header?.duration)
    }
}
