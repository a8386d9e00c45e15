/// Every option of StreamLens: the one table the command line, the pipeline-file reader, the GStreamer elements and
/// docs/reference/options.md are built from. A new option is one entry here; `OptionSchemaTests` then fail until
/// each place it names has it.
public enum OptionSchema {
    /// The GStreamer elements, by factory name.
    public enum Element {
        public static let detect = "streamlensdetect"
        public static let signs = "streamlenssigns"
        public static let annotate = "streamlensannotate"
        public static let overlay = "streamlensoverlay"
        public static let stats = "streamlensstats"
        public static let blur = "streamlensblur"
        public static let all = [detect, signs, annotate, overlay, stats, blur]
    }

    public static let corners = ["top-left", "top-right", "bottom-left", "bottom-right"]
    public static let x264Presets = [
        "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo",
    ]
    public static let regions = ["eu", "us"]

    // MARK: - Source

    public static let input = OptionSpec(
        flag: "input", key: "source.input", kind: .text("FILE | URI | /dev/videoN | GStreamer source description"),
        unset: "the built-in demo clip", help: "What to read: a file, a URI, a camera or a GStreamer source description.",
        batch: .perFile)
    public static let reconnect = OptionSpec(
        flag: "reconnect", key: "source.reconnect", kind: .bool, unset: "on for network sources and cameras",
        help: "Reopen a lost live input with backoff (0.5 s doubling to 10 s); --no-reconnect turns it off.")
    public static let reconnectMax = OptionSpec(
        flag: "reconnect-max", key: "source.reconnect_max", kind: .int(0...1_000_000), unset: "keep trying",
        help: "Give up on a lost live input after this many reconnection attempts in a row.")
    public static let stallTimeout = OptionSpec(
        flag: "stall-timeout", key: "source.stall_timeout", kind: .number(0.001...86_400), unset: "wait", unit: "s",
        help: "End a live run whose input sends nothing for this long.")

    // MARK: - Pool and analysis

    public static let poolSize = OptionSpec(
        flag: "pool-size", key: "pool.size", kind: .int(1...64), default: .int(3),
        help: "Frame pool slots between the decoder and the output.")
    public static let backpressure = OptionSpec(
        flag: "backpressure", key: "pool.backpressure", kind: .choice(["auto", "block", "drop"]), default: .text("auto"),
        help: "block waits for a free slot (lossless), drop drops the newest frame (live); auto blocks for files and "
            + "drops for live sources.")
    public static let analysisInterval = OptionSpec(
        flag: "analysis-interval", key: "analysis.interval", kind: .number(0...3600),
        unset: "each stage's own (detector 0.3 s, signs 0.08 s)", unit: "s",
        help: "Stream time between analysed frames for every analysis stage; 0 analyses every frame.")
    public static let syncAnalysis = OptionSpec(
        flag: "sync-analysis", key: "analysis.sync",
        properties: [
            .init(Element.detect, "sync-analysis"), .init(Element.signs, "sync-analysis"), .init(Element.blur, "sync-analysis"),
        ],
        kind: .choice(["auto", "on", "off"]), default: .text("auto"),
        help: "on: every due frame is analysed and drawn with its own result (frames wait for it); off: never wait, "
            + "draw the newest result; auto: on when frames are never dropped (files; an element: upstream is not "
            + "live), off for live sources.")

    // MARK: - Object detection

    public static let detector = OptionSpec(
        flag: "detector", key: "stages.detector.backend",
        properties: [.init(Element.detect, "detector", default: .text("hog"))],
        kind: .text("hog | yolov8n | cascade:NAME|PATH | onnx:PATH | off"), unset: "no detection",
        help: "The object detector: hog (OpenCV's people detector), yolov8n (Ultralytics YOLOv8n, COCO's 80 "
            + "classes, letterboxed 640 wide, keeping person, bicycle, car, motorcycle, bus, truck, traffic light and "
            + "stop sign unless classes says otherwise; its weights are AGPL-3.0 and installed on request by "
            + "`bash scripts/models/install-detector-model.sh yolov8n`), cascade:NAME|PATH (fullbody, upperbody, "
            + "frontalface, licence_plate or a cascade XML file) or onnx:PATH (a YOLO v5/v8/v11 network).")
    public static let confidence = OptionSpec(
        flag: "confidence", key: "stages.detector.confidence", properties: [.init(Element.detect, "confidence")],
        kind: .number(0...1), default: .number(0.5),
        help: "Detections below this confidence are dropped (HOG and cascades score a bare detection 0.5).")
    public static let classes = OptionSpec(
        flag: "classes", key: "stages.detector.classes", properties: [.init(Element.detect, "classes", default: .text(""))],
        kind: .text("NAME[,NAME…] (names or ids)"), unset: "every class (yolov8n: its road classes)",
        help: "Keep only these detection classes.")
    public static let exclude = OptionSpec(
        key: "stages.detector.exclude", kind: .text("[NAME, …]"), unset: "none",
        help: "Drop these detection classes.")
    public static let classNames = OptionSpec(
        flag: "class-names", key: "stages.detector.class_names", kind: .path, unset: "the 80 COCO names",
        help: "ONNX: the class-names file, one name per line.")
    public static let inputSize = OptionSpec(
        flag: "input-size", key: "stages.detector.input_size", properties: [.init(Element.detect, "input-size")],
        kind: .int(32...4096), default: .int(640), unit: "px",
        help: "onnx:PATH: the model's square input size (a model exported at another size needs its own). yolov8n: "
            + "the letterbox width, 320, 480 or 640; its height follows the frames' aspect (a 16:9 frame at 640 runs "
            + "a 640 × 384 network), except on the element, which runs a square network.")
    public static let iou = OptionSpec(
        key: "stages.detector.iou", kind: .number(0...1), default: .number(0.45),
        help: "ONNX: overlap above which the weaker box of a class is suppressed.")
    public static let detectorInterval = OptionSpec(
        key: "stages.detector.interval", properties: [.init(Element.detect, "interval")], kind: .number(0...3600),
        default: .number(0.3), unit: "s",
        help: "Stream time between analysed frames (0 = every frame); lengthened while inference is slow, unless "
            + "analysis is synchronous.")
    public static let everyNthFrame = OptionSpec(
        key: "stages.detector.every_nth_frame", kind: .int(1...10_000), unset: "by interval",
        help: "Analyse one frame in every N instead of by interval.")
    public static let budget = OptionSpec(
        key: "stages.detector.budget", kind: .number(0.001...60), default: .number(0.25), unit: "s",
        help: "Inference time one analysis may take before the cadence is lengthened.")
    public static let maxConcurrent = OptionSpec(
        key: "stages.detector.max_concurrent", kind: .int(1...1000), default: .int(5),
        help: "At most this many detections per frame, most confident first.")
    public static let maxAge = OptionSpec(
        key: "stages.detector.max_age", kind: .number(0.001...86_400), default: .number(30), unit: "s",
        help: "Detections unseen this long are dropped.")
    public static let maxMissed = OptionSpec(
        key: "stages.detector.max_missed", kind: .int(0...1000), default: .int(5),
        help: "Analysed frames a track may be missed (occlusion) before it ends.")
    public static let smoothing = OptionSpec(
        key: "stages.detector.smoothing", kind: .number(0.001...1),
        unset: "0.35 where the newest result is drawn (live), none where each frame has its own",
        help: "Weight of the newest box in the track's moving average (1: no smoothing).")
    public static let primarySubject = OptionSpec(
        key: "stages.detector.primary_subject", kind: .bool, default: .bool(false),
        help: "Follow only the largest subject.")
    public static let analysisWidth = OptionSpec(
        key: "stages.detector.analysis_width", kind: .int(64...8192), unset: "the backend's (640, or the ONNX input size)",
        unit: "px", help: "Width of the copy the detector analyses.")

    // MARK: - Speed limits

    public static let speedLimits = OptionSpec(
        flag: "speed-limits", key: "stages.speed_limits.region", properties: [.init(Element.signs, "region", default: .text("eu"))],
        kind: .choice(regions), unset: "off (a pipeline file's `speed_limits: true` reads eu)",
        help: "Read speed-limit signs: eu (5, 10…130 km/h), us (5…85 mph), or off.")
    public static let signConfidence = OptionSpec(
        key: "stages.speed_limits.confidence", properties: [.init(Element.signs, "confidence")], kind: .number(0...1),
        default: .number(0.7), help: "OCR confidence below which a read of a sign is ignored.")
    public static let signExpiry = OptionSpec(
        key: "stages.speed_limits.expiry", properties: [.init(Element.signs, "expiry")], kind: .number(1...86_400),
        default: .number(180), unit: "s", help: "How long the current limit stays valid after its sign was last seen.")
    public static let signInterval = OptionSpec(
        key: "stages.speed_limits.interval", properties: [.init(Element.signs, "interval")], kind: .number(0...3600),
        default: .number(0.08), unit: "s",
        help: "Stream time between analysed frames (0 = every frame); several reads per sign are voted on.")
    public static let textLineModel = OptionSpec(
        flag: "text-line-model", key: "stages.speed_limits.text_line_model",
        properties: [.init(Element.signs, "text-line-model", default: .text(""))], kind: .path,
        unset: "the one scripts/models/install-text-line-model.sh installed, if any",
        help: "The speed-limit reader's text-line recogniser: a model file, or off for none.")

    // MARK: - Drawing

    public static let frameStamp = OptionSpec(
        flag: "stamp", key: "stages.frame_stamp", kind: .flag, default: .bool(false),
        help: "Burn the frame index and time into every frame.")
    public static let annotate = OptionSpec(
        flag: "annotate", kind: .text("boxes,labels,badge,hud,spotlight | none"),
        unset: "boxes and labels (and the speed-limit badge) whenever an analysis stage runs",
        help: "What to draw, as a list; a pipeline file says it under stages.annotations.")
    public static let boxes = OptionSpec(
        key: "stages.annotations.boxes", properties: [.init(Element.annotate, "boxes")], kind: .bool,
        default: .bool(true), help: "Draw a box around every detection.")
    public static let labels = OptionSpec(
        key: "stages.annotations.labels", properties: [.init(Element.annotate, "labels")], kind: .bool,
        default: .bool(true), help: "Label every box with its class, confidence and track id.")
    public static let badge = OptionSpec(
        key: "stages.annotations.speed_limit_badge", properties: [.init(Element.annotate, "badge")],
        kind: .choice(corners + ["off"]), default: .text("top-right"),
        help: "The corner of the current speed-limit badge, or off.")
    public static let badgeRegion = OptionSpec(
        properties: [.init(Element.annotate, "badge-region")], kind: .choice(regions), default: .text("eu"),
        help: "The road sign the badge copies, as streamlenssigns' region: eu (round, red ring) or us (the SPEED "
            + "LIMIT plate). The command line takes it from --speed-limits.")
    public static let hud = OptionSpec(
        key: "stages.annotations.hud", properties: [.init(Element.annotate, "hud")], kind: .choice(corners + ["off"]),
        default: .text("off"), help: "The corner of the frame-rate and dropped-frames display, or off.")
    public static let spotlight = OptionSpec(
        key: "stages.annotations.spotlight", properties: [.init(Element.annotate, "spotlight")], kind: .number(0...1),
        default: .number(1), help: "Brightness kept outside the boxes; 1 turns the spotlight off.")
    public static let annotationSources = OptionSpec(
        key: "stages.annotations.sources", kind: .text("[STAGE, …]"), unset: "every stage",
        help: "The analysis stages whose results are drawn.")

    // MARK: - Overlays

    public static let overlay = OptionSpec(
        flag: "overlay", kind: .text("PATH@x,y[,w,h] (repeatable)"), unset: "none",
        help: "An always-on overlay clip (WebM/MOV with alpha, PNG, SVG, GIF…) at x,y, optionally sized w,h; a "
            + "pipeline file lists overlays under stages.overlays.")
    public static let overlayCache = OptionSpec(
        key: "stages.overlay_cache", kind: .int(1...64), default: .int(5),
        help: "Decoded overlay clips kept in memory.")
    public static let overlayClip = OptionSpec(
        key: "stages.overlays.clip", properties: [.init(Element.overlay, "location")], kind: .path,
        help: "The clip to loop: anything GStreamer decodes with alpha (WebM VP8/VP9 alpha, ProRes 4444, "
            + "PNG/GIF/WebP, SVG).")
    public static let overlayWhen = OptionSpec(
        key: "stages.overlays.when", properties: [.init(Element.overlay, "trigger")],
        kind: .text("always | class:NAME | speed_limit | speed_limit=VALUE"), default: .text("always"),
        help: "When the clip shows: always, per detection of a class, or when a (given) speed limit is read.")
    public static let overlayAt = OptionSpec(
        key: "stages.overlays.at", properties: [.init(Element.overlay, "anchor", default: .text("frame"))],
        kind: .text("x,y | CORNER | box:centre|top|bottom|top-left|top-right|bottom-left|bottom-right"),
        unset: "0,0", help: "Where the clip sits: a position, a frame corner or, for class triggers, on the box.")
    public static let overlayX = OptionSpec(
        properties: [.init(Element.overlay, "x")], kind: .int(-16384...16384), default: .int(0), unit: "px",
        help: "Left edge of the clip (anchor=frame); a pipeline file writes at: x,y.")
    public static let overlayY = OptionSpec(
        properties: [.init(Element.overlay, "y")], kind: .int(-16384...16384), default: .int(0), unit: "px",
        help: "Top edge of the clip (anchor=frame).")
    public static let overlaySize = OptionSpec(
        key: "stages.overlays.size", kind: .text("w,h"), unset: "the clip's own size",
        help: "The clip's size for fixed and corner placements.")
    public static let overlayWidth = OptionSpec(
        properties: [.init(Element.overlay, "width")], kind: .int(0...16384), default: .int(0), unit: "px",
        help: "Width of the clip; 0 keeps the clip's own size (with height 0) or its aspect ratio. On a box anchor: "
            + "the fixed width (0 follows the box's width, 32…512).")
    public static let overlayHeight = OptionSpec(
        properties: [.init(Element.overlay, "height")], kind: .int(0...16384), default: .int(0), unit: "px",
        help: "Height of the clip; 0 keeps the clip's own size (with width 0) or its aspect ratio.")
    public static let overlayMargin = OptionSpec(
        key: "stages.overlays.margin", kind: .int(0...10_000), default: .int(16), unit: "px",
        help: "Distance from the frame's edge for corner placements.")
    public static let overlayScale = OptionSpec(
        key: "stages.overlays.scale", kind: .number(0.01...100), default: .number(1),
        help: "On a box: the clip's width as a multiple of the box's width.")
    public static let overlayMinWidth = OptionSpec(
        key: "stages.overlays.min_width", kind: .int(2...8192), default: .int(32), unit: "px",
        help: "On a box: the clip's width is at least this.")
    public static let overlayMaxWidth = OptionSpec(
        key: "stages.overlays.max_width", kind: .int(2...8192), default: .int(512), unit: "px",
        help: "On a box: the clip's width is at most this.")
    public static let overlayMinConfidence = OptionSpec(
        key: "stages.overlays.min_confidence", kind: .number(0...1), default: .number(0),
        help: "Class triggers: only detections at least this confident.")
    public static let overlayFadeIn = OptionSpec(
        key: "stages.overlays.fade_in", kind: .number(0...60), default: .number(0.3), unit: "s", help: "Fade-in time.")
    public static let overlayFadeOut = OptionSpec(
        key: "stages.overlays.fade_out", kind: .number(0...60), default: .number(0.3), unit: "s", help: "Fade-out time.")
    public static let overlayMaxInstances = OptionSpec(
        key: "stages.overlays.max_instances", kind: .int(1...256), default: .int(4),
        help: "Class triggers: at most this many clips at once.")
    public static let overlayMaxAge = OptionSpec(
        key: "stages.overlays.max_age", properties: [.init(Element.overlay, "duration")],
        kind: .number(0.1...86_400), default: .number(30), unit: "s",
        help: "How long a triggered clip stays at most (it fades out before); always-on clips stay.")
    public static let overlayOpacity = OptionSpec(
        key: "stages.overlays.opacity", properties: [.init(Element.overlay, "opacity")], kind: .number(0...1),
        default: .number(1), help: "Multiplies the clip's alpha.")

    // MARK: - Output

    public static let output = OptionSpec(
        flag: "output", key: "sink.output", kind: .text("FILE (.mp4 .mov .mkv .webm) | null | GStreamer sink description"),
        unset: "null (nothing written)", help: "Where the annotated video goes.", batch: .notPassed)
    public static let encoderPreset = OptionSpec(
        flag: "encoder-preset", key: "sink.encoder_preset", kind: .choice(x264Presets), default: .text("ultrafast"),
        help: "x264's speed preset for file outputs.")

    // MARK: - Reports

    public static let report = OptionSpec(
        flag: "report", key: "report.json", properties: [.init(Element.stats, "report")], kind: .path,
        unset: "none", help: "Write the run report (JSON: frames and drops by cause, jitter, latency, stalls).",
        batch: .perFile)
    public static let timeline = OptionSpec(
        flag: "timeline", key: "report.timeline", kind: .path, unset: "none", help: "Write the per-frame timeline as CSV.",
        batch: .singleRun)
    public static let html = OptionSpec(
        flag: "html", key: "report.html", kind: .path, unset: "none", help: "Write an HTML report with plots.",
        batch: .singleRun)
    public static let events = OptionSpec(
        flag: "events", key: "report.events", kind: .path, unset: "none",
        help: "Write detection and speed-limit events as JSON lines.", batch: .perFile)
    public static let subtitles = OptionSpec(
        flag: "subtitles", key: "report.subtitles", kind: .path, unset: "none",
        help: "Write speed-limit events as WebVTT subtitles.", batch: .perFile)
    public static let progress = OptionSpec(
        key: "report.progress", kind: .bool, default: .bool(true),
        help: "Show the progress line; --quiet turns it off.")
    public static let quiet = OptionSpec(flag: "quiet", kind: .flag, default: .bool(false), help: "No progress line.")
    public static let metricsPort = OptionSpec(
        flag: "metrics-port", key: "report.metrics_port", kind: .int(1...65535), unset: "none",
        help: "Serve Prometheus metrics at http://127.0.0.1:PORT/metrics while running.", batch: .singleRun)
    public static let statsMetricsPort = OptionSpec(
        properties: [.init(Element.stats, "metrics-port")], kind: .int(0...65535), default: .int(0),
        help: "Serve Prometheus metrics on this loopback port while running; 0 serves none.")
    public static let statsInterval = OptionSpec(
        properties: [.init(Element.stats, "interval")], kind: .number(0...3600), default: .number(1), unit: "s",
        help: "Time between \"streamlens-stats\" element messages on the bus; 0 posts none.")
    public static let stallThreshold = OptionSpec(
        properties: [.init(Element.stats, "stall-threshold")], kind: .number(0.01...3600), default: .number(1), unit: "s",
        help: "Time without a buffer (while downstream is not blocking) after which the source counts as stalled.")

    // MARK: - Run control

    public static let shutdownGrace = OptionSpec(
        flag: "shutdown-grace", kind: .number(0...3600), default: .number(5), unit: "s",
        help: "Time the first Ctrl-C/SIGTERM may spend draining and finishing the files before the run stops hard (a "
            + "second signal stops at once).")
    public static let watchdog = OptionSpec(
        flag: "watchdog", kind: .number(0...86_400), default: .number(30), unit: "s",
        help: "End a file run in which no frame moves for this long: a stuck pipeline (0 = off).")
    public static let noStatistics = OptionSpec(
        flag: "no-statistics", kind: .flag, default: .bool(false),
        help: "Record no statistics (no report): only to measure what recording costs.", batch: .notPassed)
    public static let keepPartialOnInterrupt = OptionSpec(
        flag: "keep-partial-on-interrupt", kind: .flag, default: .bool(false),
        help: "An interrupted run keeps its outputs as NAME.partial (what batch's child runs do).", batch: .notPassed)

    /// Every option, in the order the reference page lists them.
    public static let all: [OptionSpec] = [
        input, reconnect, reconnectMax, stallTimeout,
        poolSize, backpressure, analysisInterval, syncAnalysis,
        detector, confidence, iou, inputSize, classNames, classes, exclude, detectorInterval, everyNthFrame, budget,
        maxConcurrent, maxAge, maxMissed, smoothing, primarySubject, analysisWidth,
        speedLimits, signConfidence, signExpiry, signInterval, textLineModel,
        frameStamp, annotate, boxes, labels, badge, badgeRegion, hud, spotlight, annotationSources,
        overlay, overlayCache, overlayClip, overlayWhen, overlayAt, overlayX, overlayY, overlaySize, overlayWidth,
        overlayHeight, overlayMargin, overlayScale, overlayMinWidth, overlayMaxWidth, overlayMinConfidence,
        overlayFadeIn, overlayFadeOut, overlayMaxInstances, overlayMaxAge, overlayOpacity,
        output, encoderPreset,
        report, timeline, html, events, subtitles, progress, quiet, metricsPort, statsMetricsPort, statsInterval,
        stallThreshold,
        shutdownGrace, watchdog, noStatistics, keepPartialOnInterrupt,
    ] + trackingOptions + telemetryOptions + exportOptions + privacyOptions

    /// The options with a command-line flag.
    public static var commandLine: [OptionSpec] { all.filter { $0.flag != nil } }

    /// The option with this flag (without dashes).
    public static func option(flag: String) -> OptionSpec? { all.first { $0.flag == flag } }

    /// The option with this pipeline-file key (`pool.size`; list items without their index).
    public static func option(key: String) -> OptionSpec? { all.first { $0.key == key } }

    /// The properties of `element`, in the order gst-inspect shows them.
    public static func properties(of element: String) -> [(option: OptionSpec, property: OptionSpec.Property)] {
        all.compactMap { option in option.property(of: element).map { (option, $0) } }
    }

    /// The keys a pipeline-file section may hold (`pool` → size, backpressure; "" → the top-level sections).
    public static func keys(under section: String) -> [String] {
        let prefix = section.isEmpty ? [] : section.split(separator: ".").map(String.init)
        var keys: [String] = []
        for option in all {
            guard let path = option.key?.split(separator: ".").map(String.init), path.count > prefix.count,
                Array(path.prefix(prefix.count)) == prefix
            else { continue }
            let next = path[prefix.count]
            if !keys.contains(next) { keys.append(next) }
        }
        return keys
    }
}
