import Foundation
import Testing
@testable import StreamLens
@testable import StreamLensFramePath
@testable import StreamLensGStreamer
#if canImport(Glibc)
import Glibc
#endif

/// The run spine's decisions without GStreamer: backoff delays, which files a run reads and writes, how sizes are
/// fitted, how partial files become final, which inputs reconnect.
struct RunSpineUnitTests {
    @Test func backoffDoublesFromHalfASecondToTenSeconds() {
        var backoff = ReconnectBackoff()
        var delays: [Duration] = []
        for _ in 0..<8 {
            delays.append(backoff.nextDelay)
            backoff.recordAttempt()
        }
        #expect(delays == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10), .seconds(10)])
        backoff.reset()
        #expect(backoff.nextDelay == .milliseconds(500))
    }

    @Test func backoffStopsAfterTheMaximumAttempts() {
        var backoff = ReconnectBackoff(maxAttempts: 2)
        #expect(backoff.mayAttempt)
        backoff.recordAttempt()
        backoff.recordAttempt()
        #expect(!backoff.mayAttempt)
        #expect(!ReconnectBackoff(maxAttempts: 0).mayAttempt)
    }

    /// The flake this fixes: an RTSP server stopped for 3 s gave `reconnects 2` for one reopening, when a frame that
    /// was still on its way out of the failed pipeline ended the outage and the pipeline's next error began another.
    @Test func framesDrainingFromAFailedInputDoNotEndItsOutage() {
        var outage = InputOutage(
            since: .seconds(10), reason: "connection closed", nextAttemptAt: .milliseconds(10500),
            inputWentSilent: false)
        #expect(outage.framesArrived(at: .milliseconds(10100)) == nil)
        #expect(outage.since == .milliseconds(10100))
        outage.inputReopened(attemptDeadline: .milliseconds(15500))
        #expect(outage.attemptDeadline == .milliseconds(15500))
        #expect(outage.framesArrived(at: .milliseconds(13100)) == .seconds(3))
    }

    @Test func aSilentInputThatResumesByItselfIsBackAtItsNextFrame() {
        var outage = InputOutage(
            since: .seconds(2), reason: "no data for 5 s", nextAttemptAt: .milliseconds(7500), inputWentSilent: true)
        #expect(outage.framesArrived(at: .milliseconds(7200)) == .milliseconds(5200))
    }

    @Test(arguments: [
        // (description, locations written)
        ("x264enc ! mp4mux ! filesink location=out.mp4", ["out.mp4"]),
        ("x264enc ! mp4mux ! filesink location=\"my clip.mp4\" sync=false", ["my clip.mp4"]),
        ("x264enc ! mp4mux ! filesink location='a \\'b\\'.mp4'", ["a 'b'.mp4"]),
        ("hlssink2 location=seg%05d.ts playlist-location=live.m3u8", ["seg%05d.ts", "live.m3u8"]),
        ("x264enc ! rtph264pay ! udpsink host=127.0.0.1 port=5000", []),
    ])
    func sinkDescriptionsNameTheFilesTheyWrite(description: String, expected: [String]) {
        #expect(DestinationCheck.locations(in: description, keySuffix: "location") == expected)
    }

    @Test func inputFilesAreFoundInEveryKindOfInput() {
        #expect(DestinationCheck.inputFiles(.file(path: "a.mp4")) == ["a.mp4"])
        #expect(DestinationCheck.inputFiles(.uri("file:///tmp/b%20c.mp4")) == ["/tmp/b c.mp4"])
        #expect(DestinationCheck.inputFiles(.uri("rtsp://camera/stream")) == [])
        #expect(DestinationCheck.inputFiles(.description("filesrc location=\"d e.mkv\" ! decodebin")) == ["d e.mkv"])
        #expect(DestinationCheck.inputFiles(.description("uridecodebin uri=file:///tmp/f.mp4")) == ["/tmp/f.mp4"])
    }

    @Test func sameFileIsFoundThroughSymlinksAndHardLinks() throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("a.mp4")
        try Data([1, 2, 3]).write(to: file)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.mp4").path, withDestinationPath: file.path)
        #expect(link(file.path, folder.appendingPathComponent("hard.mp4").path) == 0)
        try Data([1, 2, 3]).write(to: folder.appendingPathComponent("copy.mp4"))
        #expect(FileOnDisk.sameFile(file.path, folder.path + "/./a.mp4") == "the same path")
        #expect(FileOnDisk.sameFile(folder.appendingPathComponent("link.mp4").path, file.path) == "the same file through a symlink")
        #expect(FileOnDisk.sameFile(folder.appendingPathComponent("hard.mp4").path, file.path) == "a hard link of the same file")
        #expect(FileOnDisk.sameFile(folder.appendingPathComponent("copy.mp4").path, file.path) == nil)
        #expect(FileOnDisk.sameFile(folder.appendingPathComponent("new.mp4").path, file.path) == nil)
    }

    @Test(arguments: [
        // (rule multiple, minimum, size, fitted)
        (2, 16, 641, 642), (2, 16, 9, 16), (2, 2, 1, 2), (2, 2, 3, 4), (1, 16, 17, 17), (1, 16, 9, 16), (2, 16, 1080, 1080),
    ])
    func sizesAreFittedUpToTheRule(multiple: Int, minimum: Int, size: Int, fitted: Int) {
        #expect(OutputSizeRule(multiple: multiple, minimum: minimum).fitted(size) == fitted)
    }

    @Test func outputTargetsKnowTheirSizeRules() throws {
        #expect(try OutputTarget(parsing: "a.mp4").sizeRule == OutputSizeRule(multiple: 2, minimum: 16))
        #expect(try OutputTarget(parsing: "a.mkv").sizeRule == OutputSizeRule(multiple: 2, minimum: 2))
        #expect(try OutputTarget(parsing: "a.webm").sizeRule == OutputSizeRule(multiple: 1, minimum: 16))
        #expect(try OutputTarget(parsing: "x264enc ! matroskamux ! filesink location=a.mkv").sizeRule == OutputSizeRule(multiple: 2, minimum: 1))
        #expect(try OutputTarget(parsing: "autovideosink sync=false").sizeRule == nil)
        #expect(try OutputTarget(parsing: "null").sizeRule == nil)
    }

    @Test func aPartialFileBecomesFinalInOneRenameAndStalePartialsGo() throws {
        let folder = try makeTemporaryFolder()
        let path = folder.appendingPathComponent("out.mkv").path
        let file = PartialFile(path: path)
        #expect(file.partialPath == path + ".partial")
        try Data("stale".utf8).write(to: URL(fileURLWithPath: file.partialPath))
        file.removeStale()
        #expect(!FileManager.default.fileExists(atPath: file.partialPath))
        try PartialFile.write(Data("whole".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "whole")
        #expect(!FileManager.default.fileExists(atPath: file.partialPath))
    }

    @Test func networkSourcesAndCamerasReconnectByDefault() {
        #expect(InputSource(parsing: "rtsp://cam/stream").mayReconnect)
        #expect(InputSource(parsing: "rtsp://cam/stream").silenceMeansLost)
        #expect(InputSource(parsing: "udp://127.0.0.1:5000").mayReconnect)
        #expect(!InputSource(parsing: "udp://127.0.0.1:5000").silenceMeansLost)
        #expect(InputSource(parsing: "/dev/video0").mayReconnect)
        #expect(InputSource(parsing: "srtsrc uri=srt://host:7000 ! decodebin").silenceMeansLost)
        #expect(!InputSource(parsing: "clip.mp4").mayReconnect)
        #expect(!InputSource(parsing: "videotestsrc is-live=true").mayReconnect)
    }

    @Test func exitStatusesFollowTheKindOfError() {
        #expect(RunError.outputIsInput(option: "--output", path: "a", input: "a", how: "the same path").exitStatus == 2)
        #expect(RunError.outputNotAFile(option: "--output", path: "a", kind: "a folder").exitStatus == 2)
        #expect(RunError.interruptedBeforeStart.exitStatus == 130)
        #expect(RunError.inputSilent(input: "udp://x", waited: .seconds(2)).exitStatus == 1)
        #expect(RunError.inputSilent(input: "udp://x", waited: .milliseconds(1500)).description.contains("1.5 s"))
    }
}
