import StreamLensCompositing
import StreamLensCore
import StreamLensGStreamer
#if canImport(Glibc)
import Glibc
#endif

/// Decodes any alpha clip or image GStreamer can read into an in-memory loop of ready-to-blend tiles.
///
/// Pipeline: `uridecodebin ! videoconvert ! videoscale ! video/x-raw,format=A420,… ! appsink`. `uridecodebin`
/// picks the decoder: WebM VP8/VP9 with alpha (through `vp8alphadecodebin`/`vp9alphadecodebin`, automatically),
/// ProRes 4444 and QuickTime RLE (`avdec_prores`, `avdec_qtrle`), animated GIF and WebP, still PNG and SVG
/// (`rsvgdec`). `videoconvert` turns whatever alpha format comes out into A420 (I420 plus full-resolution alpha),
/// in the video's colour matrix (`colorimetry`), and `videoscale` scales to the draw size, so every frame is
/// converted to a premultiplied ``OverlayTile`` exactly once.
///
/// Design: the whole loop is decoded once, at draw size, and kept in memory (about 2.8 bytes per pixel per
/// frame: a 128×128 × 140-frame logo takes 6 MB). Drawing then needs no decoder thread, no seeking at the loop
/// point (which is what makes the loop seamless) and no colour conversion. A clip that would exceed
/// `memoryBudget` is refused with an error that says so, rather than streamed; draw it smaller or shorten it.
///
/// ## Thread Safety
/// Stateless apart from its settings: each call builds, runs and tears down its own pipeline, so calls from
/// different threads are independent. A call blocks until the clip is decoded (or `timeout`).
public final class OverlayClipDecoder: OverlayClipLoader {
    /// 256 MiB per clip.
    public static let defaultMemoryBudget = 256 << 20

    /// Most bytes one decoded clip may hold.
    public let memoryBudget: Int
    /// Longest a decode may take.
    public let timeout: Duration
    /// Decoded frames followed by this long without another or an end are the whole clip: libav's GIF demuxer
    /// never signals the end of an animated GIF (it spun for the whole `timeout`, then the rule was disabled).
    static let silenceTakenAsEnd = Duration.seconds(3)
    /// GStreamer colorimetry of the converted frames ("bt709", "bt601"); match the main video's.
    public let colorimetry: String

    public init(memoryBudget: Int = OverlayClipDecoder.defaultMemoryBudget, timeout: Duration = .seconds(60), colorimetry: String = "bt709") {
        self.memoryBudget = memoryBudget
        self.timeout = timeout
        self.colorimetry = colorimetry
    }

    public func loadClip(_ request: OverlayClipRequest) throws(OverlayError) -> any OverlayClipSource {
        let path = request.path
        guard access(path, R_OK) == 0 else { throw .fileNotFound(path: path) }
        let uri = try Self.uri(forPath: path)
        // A size whose single tile is over the budget is refused as such before decoding: at 100000 × 100000 the
        // scaler refused the caps, which read as a pipeline-syntax error.
        if let width = request.width, let height = request.height,
            OverlayTile.minimumByteCount(width: width, height: height) > Double(memoryBudget)
        {
            throw .overMemoryBudget(path: path, width: width, height: height, frames: 1, budget: memoryBudget)
        }
        var caps = "video/x-raw,format=A420,pixel-aspect-ratio=1/1,colorimetry=\(colorimetry)"
        if let width = request.width { caps += ",width=\(width)" }
        if let height = request.height { caps += ",height=\(height)" }
        let description =
            "uridecodebin name=source ! videoconvert ! videoscale ! \(caps) ! appsink name=frames sync=false max-buffers=4 enable-last-sample=false"
        let pipeline: Pipeline
        let sink: AppSink
        do {
            pipeline = try Pipeline(description, label: "overlay clip")
            try pipeline.element(named: "source").set("uri", string: uri)
            _ = try pipeline.element(named: "frames")
        } catch {
            throw .undecodable(path: path, reason: error.description)
        }
        defer { _ = try? pipeline.setState(.null) }
        do {
            sink = try pipeline.appSink(named: "frames")
        } catch {
            throw .undecodable(path: path, reason: "the frame sink is not an appsink")
        }
        do {
            try pipeline.setState(.playing)
        } catch {
            throw .undecodable(path: path, reason: Self.busError(pipeline) ?? error.description)
        }
        return try pullFrames(from: sink, pipeline: pipeline, path: path)
    }

    private func pullFrames(
        from sink: AppSink, pipeline: Pipeline, path: String
    ) throws(OverlayError) -> OverlayClip {
        let clock = SystemClock()
        let deadline = clock.now() + timeout
        var tiles: [OverlayTile] = []
        var timestamps: [Duration?] = []
        var lastDuration: Duration?
        var frameRate: FrameRate?
        var bytes = 0
        var lastFrameAt = clock.now()
        while true {
            // Nil: no sample within 100 ms.
            let pulled: Void? = try sink.withNextSample(timeout: .milliseconds(100)) { (sample) throws(OverlayError) in
                lastFrameAt = clock.now()
                guard sample.hasFrame else { return }
                guard let video = sample.videoDescription else {
                    throw .undecodable(path: path, reason: "unreadable frame caps")
                }
                let tile = try Self.tile(from: sample, video: video, path: path)
                bytes += tile.byteCount
                if bytes > memoryBudget {
                    throw .overMemoryBudget(
                        path: path, width: tile.width, height: tile.height, frames: tiles.count + 1, budget: memoryBudget)
                }
                tiles.append(tile)
                timestamps.append(sample.pts)
                lastDuration = sample.duration
                let numerator = video.frameRateNumerator, denominator = video.frameRateDenominator
                frameRate = numerator > 0 && denominator > 0 ? FrameRate(numerator, denominator) : nil
            }
            if pulled == nil {
                if let failure = Self.busError(pipeline) { throw .undecodable(path: path, reason: failure) }
                if sink.isEndOfStream { break }
                if !tiles.isEmpty && clock.now() - lastFrameAt >= Self.silenceTakenAsEnd { break }
                if clock.now() > deadline { throw .timedOut(path: path, seconds: Int(timeout.seconds)) }
            }
        }
        guard !tiles.isEmpty else { throw .noFrames(path: path) }
        return OverlayClip(name: path, frames: tiles, timing: Self.timing(
            frameCount: tiles.count, frameRate: frameRate, timestamps: timestamps, lastDuration: lastDuration))
    }

    /// Constant rate when the caps state one; otherwise each frame lasts until the next one's timestamp (GIF
    /// delays), the last for its buffer duration (or the mean of the others, or 100 ms).
    static func timing(frameCount: Int, frameRate: FrameRate?, timestamps: [Duration?], lastDuration: Duration?) -> LoopTiming {
        if let frameRate { return .constant(frameRate, frameCount: frameCount) }
        var durations: [Duration] = []
        for index in 0..<(frameCount - 1) {
            if let start = timestamps[index], let next = timestamps[index + 1], next > start {
                durations.append(next - start)
            } else {
                durations.append(.milliseconds(100))
            }
        }
        let mean = durations.isEmpty ? Duration.milliseconds(100) : durations.reduce(.zero, +) / durations.count
        durations.append(lastDuration.flatMap { $0 > .zero ? $0 : nil } ?? mean)
        return .variable(frameDurations: durations)
    }

    /// Maps an A420 frame and converts it into a premultiplied tile.
    private static func tile(
        from sample: DecodedSample, video: DecodedSample.VideoDescription, path: String
    ) throws(OverlayError) -> OverlayTile {
        guard video.isA420 else {
            throw .undecodable(path: path, reason: "frames arrived without an alpha plane")
        }
        let tile = sample.withMappedA420Planes(video) { luma, u, v, alpha in
            OverlayTile(a420: luma, u: u, v: v, alpha: alpha)
        }
        guard let tile else { throw .undecodable(path: path, reason: "a decoded frame could not be mapped") }
        return tile
    }

    /// The first ERROR (or missing-plugin) message waiting on the bus, as text.
    private static func busError(_ pipeline: Pipeline) -> String? {
        while let message = pipeline.nextMessage(timeout: .zero) {
            switch message {
            case .error(let error): return error.description
            case .missingPlugin(let detail): return GStreamerError.missingPlugin(detail: detail).description
            default: continue
            }
        }
        return nil
    }

    private static func uri(forPath path: String) throws(OverlayError) -> String {
        do {
            return try GStreamer.uri(forPath: path)
        } catch {
            throw .undecodable(path: path, reason: error.message)
        }
    }
}
