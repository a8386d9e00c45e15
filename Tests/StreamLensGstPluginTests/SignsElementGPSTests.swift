import Foundation
import Testing

/// streamlenssigns with a GPS track (`gps` property): each sign's message says where it was passed.
@Suite(.serialized) struct SignsElementGPSTests {
    @Test func aSignsMessageCarriesWhereItWasPassed() async throws {
        try PluginHarness.requirePlugin()
        let folder = try PluginHarness.temporaryFolder()
        // Stream seconds, heading north 0.001° a second.
        let track = folder.appendingPathComponent("drive.csv")
        try "time,lat,lon\n0,45.000,13.0\n1,45.001,13.0\n2,45.002,13.0\n".write(to: track, atomically: true, encoding: .utf8)
        let recording = try await PluginHarness.readMetas(
            "\(try PluginHarness.signClipSource(SignsElementTests.clip)) ! streamlenssigns sync-analysis=on "
                + "gps=\(track.path) gps-offset=0.5 ! fakesink")
        #expect(recording.outcome.status == 0, "stderr: \(recording.outcome.standardError)")
        let sign = try #require(recording.messages(named: "streamlens-speed-limit").first)
        let end = try #require(sign["end"] as? Double)
        // The track runs 0.5 s late: at stream time `end` the vehicle was at the track's `end − 0.5`.
        let latitude = try #require(sign["latitude"] as? Double)
        #expect(abs(latitude - (45 + 0.001 * (end - 0.5))) < 1e-9, "latitude \(latitude) at \(end)")
        #expect(sign["longitude"] as? Double == 13)
    }

    @Test func aTrackThatCannotBeReadStopsTheElementInOneLine() async throws {
        try PluginHarness.requirePlugin()
        let outcome = try await PluginHarness.launch(
            "\(try PluginHarness.signClipSource(SignsElementTests.clip)) ! streamlenssigns gps=/nonexistent/drive.gpx ! fakesink")
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains("cannot read GPS telemetry from '/nonexistent/drive.gpx': no such file"),
                "\(outcome.standardError)")
    }
}
