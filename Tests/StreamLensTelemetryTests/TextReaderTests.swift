import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

@testable import StreamLensTelemetry

@Suite("NMEA, GPX and CSV tracks")
struct TextReaderTests {
    /// Sentences written for these tests (checksums computed by hand): two epochs with RMC, GGA and VTG, a void
    /// RMC in the southern and western hemispheres, one sentence with a wrong checksum.
    static let nmea = """
        $GPRMC,120000.00,A,4807.0380,N,01131.0000,E,10.0,84.4,230394,003.1,W*4F
        $GPGGA,120000.00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,*67
        $GPRMC,120001.00,A,4807.0390,N,01131.0100,E,11.0,84.4,230394,003.1,W*4F
        $GPGGA,120001.00,4807.0390,N,01131.0100,E,1,08,1.1,546.0,M,46.9,M,,*68
        $GPVTG,84.4,T,,M,11.0,N,20.5,K,A*32
        $GPGGA,120001.50,4807.0395,N,01131.0150,E,1,08,1.1,546.0,M,46.9,M,,*00
        $GNRMC,120002.00,V,3351.1200,S,15112.3400,W,0.0,0.0,230394,,*3D
        """

    @Test("NMEA: epochs merged, checksums checked, VTG speed, void fixes kept as no fix")
    func nmeaEpochs() throws {
        let track = NMEAReader.track(from: Self.nmea)
        #expect(track.skipped == 1)
        #expect(track.fixes.count == 3)
        let first = track.fixes[0]
        #expect(near(first.latitude, 48.1173, 1e-12) && near(first.longitude, 11.516666666666667, 1e-12))
        #expect(first.utc == 764_424_000 && first.altitude == 545.4 && first.precision == 0.9)
        #expect(near(first.speed, 10 * 1852.0 / 3600, 1e-12) && first.hasFix)
        // The VTG after the second epoch's sentences gives its speed in km/h.
        #expect(near(track.fixes[1].speed, 20.5 / 3.6, 1e-12) && track.fixes[1].utc == 764_424_001)
        let void = track.fixes[2]
        #expect(near(void.latitude, -33.852, 1e-12) && near(void.longitude, -151.20566666666667, 1e-12))
        #expect(void.fix == 0 && !void.hasFix)
    }

    @Test("NMEA: a GGA-only log running past midnight counts on")
    func nmeaMidnight() {
        let track = NMEAReader.track(from: """
            $GPGGA,235959.00,4807.0400,N,01131.0200,E,1,08,1.0,546.0,M,46.9,M,,*67
            $GPGGA,000001.00,4807.0410,N,01131.0210,E,1,08,1.0,546.0,M,46.9,M,,*67
            """)
        #expect(track.fixes.map(\.utc) == [86_399, 86_401])
    }

    @Test(
        "NMEA: pynmea2's example log — one GGA among other sentences and a line of junk",
        .enabled(if: gpsSample("pynmea2-data.log") != nil, "run scripts/datasets/fetch-gps-samples.sh"))
    func pynmeaLog() throws {
        let track = try TrackLoader.load(path: gpsSample("pynmea2-data.log")!)
        #expect(track.source == .nmea && track.fixes.count == 1)
        // $GPGGA,184353.07,1929.045,S,02410.506,E,1,04,2.6,100.00,M,…
        #expect(near(track.fixes[0].latitude, -(19 + 29.045 / 60), 1e-12))
        #expect(near(track.fixes[0].longitude, 24 + 10.506 / 60, 1e-12))
        #expect(track.fixes[0].altitude == 100 && track.fixes[0].precision == 2.6)
    }

    @Test("GPX: attributes, namespaced extensions, entities, comments, CDATA; route points only without a track")
    func gpxMarkup() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment with <trkpt> inside -->
            <gpx version="1.1" creator="a &amp; b" xmlns:gpxtpx="x">
              <trk><name><![CDATA[drive <1>]]></name><trkseg>
                <trkpt lat="45.5" lon='13.25'><ele>211.5</ele><time>2020-12-18T06:15:50Z</time>
                  <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>12.5</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions>
                </trkpt>
                <trkpt lat="45.6" lon="13.3"><time>2020-12-18T08:15:51.500+02:00</time><fix>none</fix></trkpt>
                <trkpt lat="95" lon="13.3"/>
              </trkseg></trk>
            </gpx>
            """
        let track = try GPXReader.track(from: text, path: "inline.gpx")
        #expect(track.skipped == 1)
        #expect(track.fixes == [
            GeoFix(utc: 1_608_272_150, latitude: 45.5, longitude: 13.25, altitude: 211.5, speed: 12.5),
            GeoFix(utc: 1_608_272_151.5, latitude: 45.6, longitude: 13.3, fix: 0),
        ])
        let route = try GPXReader.track(from: #"<gpx><rte><rtept lat="1" lon="2"/></rte></gpx>"#, path: "r.gpx")
        #expect(route.fixes == [GeoFix(latitude: 1, longitude: 2)])
    }

    @Test(
        "GPX: a real car drive (gpxpy's around-visnjan-with-car.gpx): count, ends, and length as gpxpy measures it",
        .enabled(if: gpsSample("around-visnjan-with-car.gpx") != nil, "run scripts/datasets/fetch-gps-samples.sh"))
    func gpxRealDrive() throws {
        let track = try TrackLoader.load(path: gpsSample("around-visnjan-with-car.gpx")!)
        #expect(track.source == .gpx && track.fixes.count == 104)
        #expect(track.fixes[0] == GeoFix(utc: 1_608_272_150, latitude: 45.2735188510, longitude: 13.7142099626, altitude: 211.15))
        #expect(track.fixes[103].latitude == 45.2733349521 && track.fixes[103].utc == 1_608_272_150 + 514)
        // gpxpy 1.6.2's length_2d() of the same file: 2736.30 m (its Earth radius is 0.11 % larger than ours).
        var length = 0.0
        for (a, b) in zip(track.fixes, track.fixes.dropFirst()) {
            length += Geodesy.distance(
                latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
        }
        #expect(abs(length - 2736.30) / 2736.30 < 0.005)
    }

    @Test(
        "GPX 1.0 speed elements (gpxpy's track_with_speed.gpx)",
        .enabled(if: gpsSample("track_with_speed.gpx") != nil, "run scripts/datasets/fetch-gps-samples.sh"))
    func gpxSpeed() throws {
        let track = try TrackLoader.load(path: gpsSample("track_with_speed.gpx")!)
        #expect(track.fixes.map(\.speed) == [1.2, 2.2, 3.2])
        #expect(track.fixes[0].utc == 1_236_002_752)
    }

    @Test("CSV: a header names the columns; stream seconds or ISO times; bad rows counted")
    func csvColumns() throws {
        let track = CSVTrackReader.track(from: """
            # exported by a dashcam app
            latitude;longitude;time;speed_kmh
            45.1;13.2;0.5;36
            45.2;13.3;abc;36
            x;13.3;1.5;36
            """)
        #expect(track.fixes == [GeoFix(time: 0.5, latitude: 45.1, longitude: 13.2, speed: 10)])
        #expect(track.skipped == 2)
        let plain = CSVTrackReader.track(from: "2020-12-18T06:15:50Z,45.5,13.25,4.5\n")
        #expect(plain.fixes == [GeoFix(utc: 1_608_272_150, latitude: 45.5, longitude: 13.25, speed: 4.5)])
    }

    @Test("a file that is no track says what StreamLens reads")
    func unknownFormat() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID()).txt").path
        try "just some notes\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: TelemetryError.unknownFormat(path: path)) { try TrackLoader.load(path: path) }
        #expect(throws: TelemetryError.cannotRead(path: "/nonexistent/x.gpx", reason: "no such file")) {
            try TrackLoader.load(path: "/nonexistent/x.gpx")
        }
    }

    @Test("a FIFO is refused at once, never opened (opening it would wait for a writer)")
    func fifoIsRefused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gps-\(UUID()).fifo").path
        #expect(mkfifo(path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: TelemetryError.cannotRead(path: path, reason: "it is not a regular file")) {
            try TrackLoader.load(path: path)
        }
        #expect(throws: TelemetryError.cannotRead(path: path, reason: "it is not a regular file")) {
            _ = try TrackLoader.embedded(inVideo: path)
        }
    }
}
