import Foundation
import Synchronization
import Testing
import StreamLensCore
@testable import StreamLensFramePath
@testable import StreamLensGStreamer

/// Runs `input ! appsink` → FramePath → `appsrc ! output` to the end and returns when the output saw end-of-stream.
/// The waiting happens on a thread of its own, not on Swift concurrency's shared threads.
private func runFramePath(
    input: String, output: String? = "fakesink sync=false", policy: BackpressurePolicy, capacity: Int = 3,
    compositors: [any CompositingStage] = [], analysis: [(stage: any AnalysisStage, schedule: any AnalysisSchedule)] = [],
    synchronizes: Bool = false, observer: RecordingObserver
) async throws -> FramePath {
    let stages = UncheckedBox((compositors, analysis))
    return try await withCheckedThrowingContinuation { continuation in
        Thread {
            continuation.resume(with: Result {
                try runFramePathBlocking(
                    input: input, output: output, policy: policy, capacity: capacity, compositors: stages.value.0,
                    analysis: stages.value.1, synchronizes: synchronizes, observer: observer)
            })
        }.start()
    }
}

/// Carries test values that are only touched by one thread at a time across a thread boundary.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

private func runFramePathBlocking(
    input: String, output: String?, policy: BackpressurePolicy, capacity: Int,
    compositors: [any CompositingStage], analysis: [(stage: any AnalysisStage, schedule: any AnalysisSchedule)],
    synchronizes: Bool, observer: RecordingObserver
) throws -> FramePath {
    let inputPipeline = try Pipeline(
        "\(input) ! appsink name=sink sync=false enable-last-sample=false", label: "input")
    let outputPipeline = try output.map {
        try Pipeline("appsrc name=src format=time block=true max-buffers=2 ! \($0)", label: "output")
    }
    let path = try FramePath(
        configuration: .init(
            pool: PoolConfiguration(capacity: capacity, policy: policy), compositors: compositors,
            analysis: analysis, observer: observer, synchronizesAnalysis: synchronizes),
        input: inputPipeline, sinkName: "sink", output: outputPipeline, sourceName: "src")
    path.start()
    try outputPipeline?.setState(.playing)
    try inputPipeline.setState(.playing)
    #expect(path.waitUntilDrained(timeout: .seconds(60)), "frame path did not drain")
    if let outputPipeline {
        var sawEndOfStream = false
        while let message = outputPipeline.nextMessage(timeout: .seconds(10)) {
            if case .endOfStream = message { sawEndOfStream = true; break }
            if case .error(let error) = message { Issue.record("output error: \(error)"); break }
        }
        #expect(sawEndOfStream, "output never reached end-of-stream")
    }
    try inputPipeline.setState(.null)
    try outputPipeline?.setState(.null)
    return path
}

/// A compositing stage that takes a fixed time per frame and writes a known luma value in the top-left pixel.
private final class SlowMarkerStage: CompositingStage {
    let name = "slow-marker"
    let delay: Duration
    init(delay: Duration) { self.delay = delay }
    func composite(onto frame: YUVPlanes, context: CompositeContext) {
        frame.y[0, 0] = 200
        if delay > .zero { Thread.sleep(forTimeInterval: delay.seconds) }
    }
}

/// An analysis stage that reports one tracked box whose x is ten times the frame index, after `delay`.
private final class MovingBoxStage: AnalysisStage {
    let name = "mover"
    let delay: Duration
    let analysed = Mutex<[Int]>([])
    init(delay: Duration) { self.delay = delay }
    func analyze(_ frame: AnalysisFrame) throws -> Detections {
        if delay > .zero { Thread.sleep(forTimeInterval: delay.seconds) }
        analysed.withLock { $0.append(frame.frameIndex) }
        return Detections(pts: frame.pts, source: name, items: [
            Detection(
                box: BoundingBox(x: Double(frame.frameIndex * 10), y: 0, width: 8, height: 8), className: "thing",
                confidence: 1, trackID: 1),
        ])
    }
}

/// An analysis stage that never returns until released (a hung detector).
private final class HangingStage: AnalysisStage {
    let name = "hang"
    let release = DispatchSemaphore(value: 0)
    /// Signalled when the first analysis begins (and hangs).
    let started = DispatchSemaphore(value: 0)
    func analyze(_ frame: AnalysisFrame) throws -> Detections {
        started.signal()
        release.wait()
        return .empty(pts: frame.pts, source: name)
    }
}

/// A compositing stage that records, per frame, the x of each stage's first drawn box.
private final class DrawnBoxRecorder: CompositingStage {
    let name = "drawn-box-recorder"
    let drawn = Mutex<[Int: Double]>([:])
    let order = Mutex<[Int]>([])
    func composite(onto frame: YUVPlanes, context: CompositeContext) {
        order.withLock { $0.append(context.frameIndex) }
        if let box = context.latestDetections["mover"]?.items.first?.box {
            drawn.withLock { $0[context.frameIndex] = box.x }
        }
    }
}

/// An analysis stage that counts calls and reports one box.
private final class CountingAnalysisStage: AnalysisStage {
    let name = "counter"
    let delay: Duration
    let calls = Atomic<Int>(0)
    let sizes = Mutex<[Int]>([])
    let preferredAnalysisWidth: Int? = 160
    init(delay: Duration) { self.delay = delay }
    func analyze(_ frame: AnalysisFrame) throws -> Detections {
        calls.add(1, ordering: .relaxed)
        sizes.withLock { $0.append(frame.planes.width) }
        if delay > .zero { Thread.sleep(forTimeInterval: delay.seconds) }
        return Detections(pts: frame.pts, source: name, items: [
            Detection(box: BoundingBox(x: 1, y: 2, width: 3, height: 4), className: "thing", confidence: 1),
        ])
    }
}

/// An analysis stage at the source size that records, per analysed frame, where its luma plane lies and the value
/// of the top-left pixel.
private final class FullSizeProbeStage: AnalysisStage {
    let name = "probe"
    let seen = Mutex<[Int: (address: Int, width: Int, topLeft: UInt8)]>([:])
    func analyze(_ frame: AnalysisFrame) throws -> Detections {
        // Long enough that the frame would be drawn on meanwhile if it did not wait for this result.
        Thread.sleep(forTimeInterval: 0.01)
        let probe = (Int(bitPattern: frame.planes.y.base), frame.planes.width, frame.planes.y[0, 0])
        seen.withLock { $0[frame.frameIndex] = probe }
        return .empty(pts: frame.pts, source: name)
    }
}

/// An analysis stage on a copy `width` wide (nil: the source's) in the colours it asks for, recording the luma in
/// the copy's middle.
private final class CopyLumaProbeStage: AnalysisStage {
    let name: String
    let analysisColours: AnalysisColours
    let preferredAnalysisWidth: Int?
    let middleLuma = Mutex<[UInt8]>([])
    init(colours: AnalysisColours, width: Int?) {
        name = "copy-luma-\(colours)-\(width ?? 0)"
        analysisColours = colours
        preferredAnalysisWidth = width
    }
    func analyze(_ frame: AnalysisFrame) throws -> Detections {
        let probe = frame.planes.y[frame.planes.width / 2, frame.planes.height / 2]
        middleLuma.withLock { $0.append(probe) }
        return .empty(pts: frame.pts, source: name)
    }
}

/// A compositing stage that records the luma in the middle of each source frame.
private final class SourceLumaRecorder: CompositingStage {
    let name = "source-luma-recorder"
    let middleLuma = Mutex<[UInt8]>([])
    func composite(onto frame: YUVPlanes, context: CompositeContext) {
        let probe = frame.y[frame.width / 2, frame.height / 2]
        middleLuma.withLock { $0.append(probe) }
    }
}

/// A compositing stage that records where each frame's luma plane lies, then marks its top-left pixel.
private final class PlaneAddressRecorder: CompositingStage {
    let name = "plane-address-recorder"
    let addresses = Mutex<[Int: Int]>([:])
    func composite(onto frame: YUVPlanes, context: CompositeContext) {
        addresses.withLock { $0[context.frameIndex] = Int(bitPattern: frame.y.base) }
        frame.y[0, 0] = 200
    }
}

@Suite(.serialized) struct FramePathTests {
    @Test func blockPolicyDeliversEveryFrameInOrderWithContinuousTimestamps() async throws {
        let observer = RecordingObserver()
        let path = try await runFramePath(
            input: "videotestsrc num-buffers=90 ! video/x-raw,format=I420,width=320,height=240,framerate=30/1",
            policy: .block, compositors: [SlowMarkerStage(delay: .milliseconds(1))], observer: observer)
        #expect(observer.decoded == 90)
        #expect(observer.output == 90)
        #expect(observer.dropped == 0)
        #expect(path.outputCount == 90)
        let outputs = observer.state.withLock { $0.outputs }
        #expect(outputs.map(\.index) == Array(0..<90))
        // PTS advance by exactly one frame duration (1/30 s, rounded by GStreamer to whole nanoseconds).
        for (previous, next) in zip(outputs, outputs.dropFirst()) {
            let step = (next.pts! - previous.pts!).nanoseconds
            #expect(abs(step - 33_333_333) <= 1, "PTS step \(step) ns between frames \(previous.index) and \(next.index)")
        }
    }

    @Test func dropPolicyCountsEveryDropWhenCompositingIsTooSlow() async throws {
        let observer = RecordingObserver()
        // A live 100 fps source against a stage that needs 30 ms a frame: about two thirds must be dropped.
        _ = try await runFramePath(
            input: "videotestsrc is-live=true num-buffers=60 ! video/x-raw,format=I420,width=320,height=240,framerate=100/1",
            policy: .drop, compositors: [SlowMarkerStage(delay: .milliseconds(30))], observer: observer)
        let drops = observer.state.withLock { $0.drops }
        #expect(observer.decoded == 60)
        #expect(observer.decoded == observer.output + observer.dropped)
        #expect(drops.count >= 20, "expected many drops, got \(drops.count)")
        #expect(drops.allSatisfy { $0.cause == .poolFull })
        // Nothing is lost silently: every index appears exactly once, as an output or as a drop.
        let seen = observer.state.withLock { state in state.outputs.map(\.index) + state.drops.map(\.index) }
        #expect(seen.sorted() == Array(0..<60))
    }

    @Test func nv12FramesAreCompositedInTheirNativeLayout() async throws {
        final class LayoutProbe: CompositingStage {
            let name = "probe"
            let layouts = Mutex<Set<PixelLayout>>([])
            func composite(onto frame: YUVPlanes, context: CompositeContext) {
                layouts.withLock { _ = $0.insert(frame.layout) }
                #expect(frame.u.pixelStride == 2 && frame.v.base == frame.u.base + 1)
            }
        }
        let probe = LayoutProbe()
        let observer = RecordingObserver()
        _ = try await runFramePath(
            input: "videotestsrc num-buffers=10 ! video/x-raw,format=NV12,width=320,height=240",
            policy: .block, compositors: [probe], observer: observer)
        #expect(probe.layouts.withLock { $0 } == [.nv12])
        #expect(observer.output == 10)
    }

    @Test func analysisRunsOffTheStreamingThreadOnADownscaledCopy() async throws {
        let stage = CountingAnalysisStage(delay: .zero)
        let observer = RecordingObserver()
        let path = try await runFramePath(
            input: "videotestsrc num-buffers=30 ! video/x-raw,format=I420,width=640,height=480,framerate=30/1",
            policy: .block, analysis: [(stage, FixedIntervalSchedule(interval: .milliseconds(100)))], observer: observer)
        // 30 frames at 30 fps = 1 s; one analysis per 100 ms of stream time.
        #expect(stage.calls.load(ordering: .relaxed) == 10)
        #expect(stage.sizes.withLock { $0 }.allSatisfy { $0 == 160 })
        #expect(path.board.snapshot()["counter"]?.items.first?.className == "thing")
        #expect(observer.state.withLock { $0.skipped }.isEmpty)
    }

    /// The copy of an HD (BT.709) frame kept the format's default BT.601 colours: the converter changed every pixel's
    /// matrix as it scaled, at 3–4 times the cost, and the analysers saw another luma than the source's.
    @Test func aDownscaledCopyKeepsTheSourcesColoursUnlessTheStageAsksForBT601() async throws {
        let sourceColours = CopyLumaProbeStage(colours: .source, width: 320)
        let bt601 = CopyLumaProbeStage(colours: .bt601, width: 320)
        // Whole frames are lent in place in a frame-accurate run, but not to a stage that wants other colours.
        let wholeBT601 = CopyLumaProbeStage(colours: .bt601, width: nil)
        let source = SourceLumaRecorder()
        let observer = RecordingObserver()
        _ = try await runFramePath(
            input: "videotestsrc pattern=solid-color foreground-color=0xffff0000 num-buffers=5 ! "
                + "video/x-raw,format=I420,width=1280,height=720,framerate=30/1,colorimetry=bt709",
            policy: .block, compositors: [source],
            analysis: [
                (sourceColours, FixedIntervalSchedule(interval: .zero)), (bt601, FixedIntervalSchedule(interval: .zero)),
                (wholeBT601, FixedIntervalSchedule(interval: .zero)),
            ],
            synchronizes: true, observer: observer)
        let sourceLuma = source.middleLuma.withLock { $0 }
        let sameColours = sourceColours.middleLuma.withLock { $0 }
        let converted = bt601.middleLuma.withLock { $0 }
        let wholeConverted = wholeBT601.middleLuma.withLock { $0 }
        try #require(
            sourceLuma.count == 5 && sameColours.count == 5 && converted.count == 5 && wholeConverted.count == 5)
        // Pure red: luma 63 in BT.709, 81 in BT.601.
        #expect(sameColours == sourceLuma)
        #expect(zip(converted, sourceLuma).allSatisfy { abs(Int($0) - Int($1)) >= 10 }, "\(converted) vs \(sourceLuma)")
        #expect(wholeConverted == converted)
    }

    /// A frame 1 pixel wide got a canvas of width 0 (an even width rounded down) and crashed the analysis.
    @Test func aOnePixelWideFrameIsAnalysed() async throws {
        let stage = CountingAnalysisStage(delay: .zero)
        let observer = RecordingObserver()
        _ = try await runFramePath(
            input: "videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=1,height=48,framerate=30/1",
            policy: .block, analysis: [(stage, FixedIntervalSchedule(interval: .zero))], observer: observer)
        #expect(stage.calls.load(ordering: .relaxed) == 3)
        #expect(stage.sizes.withLock { $0 } == [2, 2, 2])
        #expect(observer.output == 3)
    }

    @Test func liveAnalysisThatCannotKeepUpSkipsFramesButNeverDropsVideo() async throws {
        let stage = CountingAnalysisStage(delay: .milliseconds(100))
        let observer = RecordingObserver()
        _ = try await runFramePath(
            input: "videotestsrc is-live=true num-buffers=45 ! video/x-raw,format=I420,width=320,height=240,framerate=30/1",
            policy: .drop, analysis: [(stage, FixedIntervalSchedule(interval: .zero))], observer: observer)
        let skipped = observer.state.withLock { $0.skipped["counter"] ?? 0 }
        #expect(observer.dropped == 0)
        #expect(observer.output == 45)
        #expect(skipped > 20, "expected skipped analyses, got \(skipped)")
        #expect(stage.calls.load(ordering: .relaxed) + skipped == 45)
    }

    /// With an interval, a busy stage misses one analysis per interval, not every frame until it is free: a stage
    /// analysing every 100 ms that takes 250 ms misses about two of every three analyses — counted as such, not as
    /// the five or six frames that go by meanwhile.
    @Test func aBusyStageCountsTheAnalysesItMissedNotTheFrames() async throws {
        let stage = CountingAnalysisStage(delay: .milliseconds(250))
        let observer = RecordingObserver()
        _ = try await runFramePath(
            input: "videotestsrc is-live=true num-buffers=45 ! video/x-raw,format=I420,width=320,height=240,framerate=30/1",
            policy: .drop, analysis: [(stage, FixedIntervalSchedule(interval: .milliseconds(100)))], observer: observer)
        let skipped = observer.state.withLock { $0.skipped["counter"] ?? 0 }
        let calls = stage.calls.load(ordering: .relaxed)
        // Every frame is written or counted as dropped: this test is about the analyses, and a loaded machine may
        // starve the live pool for a frame (liveAnalysisThatCannotKeepUpSkipsFramesButNeverDropsVideo holds the
        // frames to 45 written).
        #expect(observer.output + observer.dropped == 45, "output \(observer.output), dropped \(observer.dropped)")
        // 1.5 s of video holds 15 analyses due every 100 ms (one more for rounding); a slow machine makes the stage
        // no faster, so the sum stays near 15 however many frames went by while it was busy.
        #expect(skipped >= 4, "analyses \(calls), missed \(skipped)")
        #expect(calls + skipped <= 17, "analyses \(calls), missed \(skipped)")
    }

    @Test func syncDrawsEachFrameWithItsOwnOrInterpolatedResults() async throws {
        // Analysis every 100 ms of stream time (frames 0, 3, 6 … 27 of 30), each taking 30 ms: frames wait for it.
        let stage = MovingBoxStage(delay: .milliseconds(30))
        let recorder = DrawnBoxRecorder()
        let observer = RecordingObserver()
        _ = try await runFramePath(
            input: "videotestsrc num-buffers=30 ! video/x-raw,format=I420,width=320,height=240,framerate=30/1",
            policy: .block, compositors: [recorder],
            analysis: [(stage, FixedIntervalSchedule(interval: .milliseconds(100)))], synchronizes: true,
            observer: observer)
        #expect(observer.output == 30 && observer.dropped == 0)
        #expect(recorder.order.withLock { $0 } == Array(0..<30))
        #expect(stage.analysed.withLock { $0 } == Array(stride(from: 0, to: 30, by: 3)))
        let drawn = recorder.drawn.withLock { $0 }
        // Up to the last analysed frame each box is exactly where the stage would have put it on that frame; the
        // two frames after it keep the last result (nothing later exists).
        for index in 0...27 { #expect(drawn[index].map { abs($0 - Double(index * 10)) < 1e-9 } == true, "frame \(index): \(String(describing: drawn[index]))") }
        #expect(drawn[28] == 270 && drawn[29] == 270)
    }

    @Test func theHoldIsBoundedInFramesAndInBytes() {
        let frame1080p = 1920 * 1080 * 3 / 2
        #expect(FramePath.holdLimit(frameGaps: [8, 2], frameBytes: frame1080p) == 8, "the longest gap")
        #expect(FramePath.holdLimit(frameGaps: [100], frameBytes: frame1080p) == 32)
        #expect(FramePath.holdLimit(frameGaps: [25], frameBytes: 3840 * 2160 * 3 / 2) == 8, "4K: 32 1080p frames' bytes")
        #expect(FramePath.holdLimit(frameGaps: [25], frameBytes: 7680 * 4320 * 3 / 2) == 2)
        #expect(FramePath.holdLimit(frameGaps: [], frameBytes: frame1080p) == 1)
    }

    @Test func syncLendsFullSizeFramesToAnalysisWithoutACopy() async throws {
        // A stage that wants the source size, in a frame-accurate run: it reads the decoded frame itself, which is
        // drawn on (in place, no copy) only after its result is in. Black I420: luma 16 until the marker writes 200.
        let input = "videotestsrc pattern=black num-buffers=20 ! video/x-raw,format=I420,width=320,height=240,framerate=30/1"
        let stage = FullSizeProbeStage()
        let recorder = PlaneAddressRecorder()
        let observer = RecordingObserver()
        _ = try await runFramePath(
            input: input, policy: .block, compositors: [recorder],
            analysis: [(stage, FixedIntervalSchedule(interval: .milliseconds(100)))], synchronizes: true,
            observer: observer)
        #expect(observer.output == 20 && observer.dropped == 0)
        let seen = stage.seen.withLock { $0 }
        let drawnAt = recorder.addresses.withLock { $0 }
        #expect(seen.keys.sorted() == [0, 3, 6, 9, 12, 15, 18])
        for (index, probe) in seen {
            #expect(probe.width == 320)
            // Analysis saw the pixels before the marker was drawn.
            #expect(probe.topLeft == 16, "frame \(index): \(probe.topLeft)")
            // The same memory the frame was drawn on (frame 0 may be copied: the appsink keeps its preroll sample).
            if index > 0 { #expect(probe.address == drawnAt[index], "frame \(index) was analysed in a copy") }
        }
    }

    @Test func syncWithoutAnalysisNeverHoldsFramesBack() async throws {
        // Sync with only compositing: frames pass straight through.
        let recorder = DrawnBoxRecorder()
        let observer = RecordingObserver()
        _ = try await runFramePath(
            input: "videotestsrc num-buffers=20 ! video/x-raw,format=I420,width=320,height=240",
            policy: .block, compositors: [recorder], synchronizes: true, observer: observer)
        #expect(observer.output == 20)
        #expect(recorder.order.withLock { $0 } == Array(0..<20))
    }

    @Test func abortEndsASyncRunWaitingOnAHungAnalysis() async throws {
        let stage = HangingStage()
        defer { stage.release.signal() }
        let observer = RecordingObserver()
        let input = try Pipeline(
            "videotestsrc num-buffers=300 ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! appsink name=sink sync=false",
            label: "input")
        let output = try Pipeline("appsrc name=src format=time block=true max-buffers=2 ! fakesink sync=false", label: "output")
        let path = try FramePath(
            configuration: .init(
                pool: PoolConfiguration(capacity: 3, policy: .block), compositors: [DrawnBoxRecorder()],
                analysis: [(stage, FixedIntervalSchedule(interval: .milliseconds(100)))], observer: observer,
                synchronizesAnalysis: true),
            input: input, sinkName: "sink", output: output, sourceName: "src")
        path.start()
        try output.setState(.playing)
        try input.setState(.playing)
        // The first frame is analysed and never finishes: frames pile up in the hold, then the path waits. Abort
        // once that analysis has begun, whatever the machine's speed.
        #expect(stage.started.wait(timeout: .now() + 30) == .success, "the first frame was never analysed")
        #expect(observer.output == 0)
        path.abort(cause: .interrupted)
        // The hung analysis never returns, so any limit shows it no longer holds the path; 10 s was once too short for
        // the drain on a machine loaded by the parallel suite.
        #expect(path.waitUntilDrained(timeout: .seconds(60)), "a hung analysis held the frame path after abort")
        #expect(observer.output == 0)
        #expect(observer.dropped > 0)
        try input.setState(.null)
        try output.setState(.null)
    }

    /// After a stop, a demuxer cut midway leaves holes in what the decoder still gives out (B-frames it never got):
    /// the path keeps the frames before the first hole and drops the rest as interrupted, so the output does not
    /// jump just before its end.
    @Test func aStopCutsTheStreamAtItsFirstHole() async throws {
        let observer = RecordingObserver()
        let caps = "video/x-raw,format=I420,width=64,height=48,framerate=25/1"
        // Frames at 0…360 ms, then a hole, then frames from 600 ms.
        let input = try Pipeline(
            "videotestsrc num-buffers=10 ! \(caps) ! c. videotestsrc num-buffers=10 timestamp-offset=600000000 ! \(caps) ! c. "
                + "concat name=c adjust-base=false ! appsink name=sink sync=false", label: "input")
        let output = try Pipeline("appsrc name=src format=time block=true max-buffers=2 ! fakesink sync=false", label: "output")
        let path = try FramePath(
            configuration: .init(pool: PoolConfiguration(capacity: 3, policy: .block), observer: observer),
            input: input, sinkName: "sink", output: output, sourceName: "src")
        path.endAtFirstGap()
        path.start()
        try output.setState(.playing)
        try input.setState(.playing)
        #expect(path.waitUntilDrained(timeout: .seconds(20)), "frame path did not drain")
        try input.setState(.null)
        try output.setState(.null)
        let (outputs, drops) = observer.state.withLock { ($0.outputs, $0.drops) }
        #expect(outputs.map(\.pts) == (0..<10).map { Duration.milliseconds(40 * $0) })
        #expect(drops.count == 10 && drops.allSatisfy { $0.cause == .interrupted })
        #expect(observer.decoded == 20)
    }

    @Test func invalidDescriptionsAreReportedWithTheParserMessage() {
        #expect(throws: GStreamerError.self) { try Pipeline("videotestsrc ! nosuchelement", label: "input") }
        do {
            _ = try Pipeline("videotestsrc nosuchproperty=1", label: "input")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("nosuchproperty"))
        }
    }
}
