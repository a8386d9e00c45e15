import StreamLensCore
import Synchronization

/// Draws looping alpha clips on the video as ``OverlayRule``s say: always-on logos, markers that follow
/// detections, clips triggered by a newly read speed limit.
///
/// Each frame the stage matches the newest detections to the overlays on screen (by track id, else by box
/// overlap), starts overlays for new detections (at most ``OverlayRule/maximumInstances`` per rule), fades them
/// in and out, ends them after ``OverlayRule/maximumAge``, and blends the current frame of each clip (chosen by a
/// ``LoopClock`` started when the overlay appeared). Clips come from an ``OverlayCache``; a clip that is still
/// loading is skipped (or drawn at its previous size), never waited for. A missing or undecodable file produces one
/// warning naming it, disables its rule, and the run goes on.
///
/// Call ``preroll()`` before the video starts so the clips whose size is known are decoded up front.
///
/// ## Thread Safety
/// `composite` runs on the single processing thread; `preroll` and `report` may be called from another thread.
/// The stage's state sits behind a mutex; loading happens on the cache's loader thread.
public final class OverlayStage: CompositingStage {
    public let name: String
    public let rules: [OverlayRule]
    /// Analysis stages whose detections trigger overlays; nil means all.
    public let sources: Set<String>?
    public let cache: OverlayCache
    private let warn: @Sendable (String) -> Void
    private let state: Mutex<StageState>

    struct RuleState: Sendable {
        var isDisabled = false
        var alwaysStarted = false
        /// The speed limit last read (speed-limit rules fire when it changes).
        var lastSpeedLimit: String?
    }

    struct StageState: Sendable {
        var instances: [ActiveOverlay] = []
        var rules: [RuleState]
        var disabledClips: [String] = []
    }

    /// - Parameters:
    ///   - loader: decodes clips (StreamLensFramePath's `OverlayClipDecoder`; an in-memory loader in tests).
    ///   - cacheCapacity: clips kept decoded at once; at least every clip ``preroll()`` decodes.
    ///   - loadsInBackground: false decodes inside `composite` (tests only: it stalls the frame path).
    ///   - warn: receives the one-line warning of each disabled rule.
    public init(
        name: String = "overlays", rules: [OverlayRule], loader: any OverlayClipLoader, cacheCapacity: Int = 5,
        sources: Set<String>? = nil, loadsInBackground: Bool = true,
        warn: @escaping @Sendable (String) -> Void = { print("warning: \($0)") }
    ) {
        self.name = name
        self.rules = rules
        self.sources = sources
        self.warn = warn
        // Clips decoded at preroll are drawn from the first frame on: with more of them than the cache holds, the
        // first ones were evicted before the video started, drawn only after a reload (frames late), and then
        // evicted again by each other.
        let prerolled = Set(rules.map(Self.prerollRequest)).count
        cache = OverlayCache(
            loader: loader, capacity: max(cacheCapacity, prerolled), loadsInBackground: loadsInBackground)
        var initial = StageState(rules: Array(repeating: RuleState(), count: rules.count))
        initial.instances.reserveCapacity(64)
        state = Mutex(initial)
    }

    /// Decodes, synchronously, every clip whose size is known before any detection (fixed and corner placements,
    /// and the smallest size of box placements); disables the rules whose clip fails, with one warning each.
    public func preroll() {
        for (index, rule) in rules.enumerated() {
            do {
                _ = try cache.load(Self.prerollRequest(rule))
            } catch {
                state.withLock { disable(ruleIndex: index, error: error, in: &$0) }
            }
        }
    }

    /// The clip ``preroll()`` decodes for `rule`: at its fixed size, or at the smallest size of a box placement.
    private static func prerollRequest(_ rule: OverlayRule) -> OverlayClipRequest {
        switch rule.placement {
        case .fixed(_, _, let width, let height), .corner(_, _, let width, let height):
            OverlayClipRequest(path: rule.path, width: width, height: height)
        case .box(_, _, let minimumWidth, _):
            OverlayClipRequest(path: rule.path, width: minimumWidth & ~1, height: nil)
        }
    }

    public func composite(onto frame: YUVPlanes, context: CompositeContext) {
        let detections = AnnotationContext(context, sources: sources)
        let pts = context.pts
        state.withLock { state in
            for index in rules.indices where !state.rules[index].isDisabled {
                switch rules[index].trigger {
                case .always:
                    if !state.rules[index].alwaysStarted {
                        state.rules[index].alwaysStarted = true
                        state.instances.append(ActiveOverlay(ruleIndex: index, start: pts))
                    }
                case .detection(let className, let minimumConfidence):
                    follow(className: className, minimumConfidence: minimumConfidence, ruleIndex: index,
                           detections: detections, pts: pts, state: &state)
                case .speedLimit(let value):
                    startOnNewSpeedLimit(value: value, ruleIndex: index, detections: detections, pts: pts, state: &state)
                }
            }
            var position = 0
            while position < state.instances.count {
                if state.rules[state.instances[position].ruleIndex].isDisabled
                    || !advance(&state.instances[position], pts: pts)
                {
                    state.instances.remove(at: position)
                    continue
                }
                draw(instanceAt: position, on: frame, pts: pts, state: &state)
                position += 1
            }
        }
    }

    /// Whether an overlay is on screen, or one could start on this frame: an always-on rule, or detections for a
    /// triggered one. False once every rule is disabled (its clip could not be loaded) and nothing is on screen.
    public func willDraw(_ context: CompositeContext) -> Bool {
        let hasDetections = AnnotationContext(context, sources: sources).hasDetections
        return state.withLock { state in
            if !state.instances.isEmpty { return true }
            return rules.indices.contains { index in
                guard !state.rules[index].isDisabled else { return false }
                if case .always = rules[index].trigger { return !state.rules[index].alwaysStarted }
                return hasDetections
            }
        }
    }

    /// True while any overlay is on screen or fading; cheap enough to ask every frame (a caller with no new
    /// detections can skip ``composite(onto:context:)`` when this is false and no rule is always on).
    public var hasActiveOverlays: Bool { state.withLock { !$0.instances.isEmpty } }

    /// Overlays on screen and cache figures, for the run report.
    public var report: OverlayStageReport {
        let (active, disabled) = state.withLock { ($0.instances.filter { !$0.isExpired }.count, $0.disabledClips) }
        return OverlayStageReport(cache: cache.report, activeOverlays: active, disabledClips: disabled)
    }

    // MARK: - Triggers

    private func follow(
        className: String, minimumConfidence: Double, ruleIndex: Int, detections: AnnotationContext, pts: Duration,
        state: inout StageState
    ) {
        var visible = 0
        for position in state.instances.indices where state.instances[position].ruleIndex == ruleIndex {
            state.instances[position].matchedThisFrame = false
            if !state.instances[position].isExpired { visible += 1 }
        }
        let limit = rules[ruleIndex].maximumInstances
        detections.forEachDetection { detection in
            guard detection.className == className, detection.confidence >= minimumConfidence else { return }
            if let position = state.instances.firstIndex(where: {
                $0.ruleIndex == ruleIndex && !$0.matchedThisFrame && $0.follows(detection)
            }) {
                state.instances[position].matchedThisFrame = true
                state.instances[position].box = detection.box
                state.instances[position].goneSince = nil
            } else if visible < limit {
                state.instances.append(ActiveOverlay(ruleIndex: ruleIndex, start: pts, box: detection.box, trackID: detection.trackID))
                visible += 1
            }
        }
        for position in state.instances.indices
        where state.instances[position].ruleIndex == ruleIndex && !state.instances[position].matchedThisFrame
            && state.instances[position].goneSince == nil
        {
            state.instances[position].goneSince = pts
        }
    }

    private func startOnNewSpeedLimit(
        value: String?, ruleIndex: Int, detections: AnnotationContext, pts: Duration, state: inout StageState
    ) {
        var newest: (pts: Duration, confidence: Double, detection: Detection)?
        detections.forEachResult { result in
            for detection in result.items where detection.className == "speed_limit" && !(detection.text ?? "").isEmpty {
                if let best = newest, (best.pts, best.confidence) >= (result.pts, detection.confidence) { continue }
                newest = (result.pts, detection.confidence, detection)
            }
        }
        guard let reading = newest?.detection, let readValue = reading.text,
            readValue != state.rules[ruleIndex].lastSpeedLimit
        else { return }
        state.rules[ruleIndex].lastSpeedLimit = readValue
        guard value == nil || value == readValue else { return }
        let count = state.instances.reduce(0) { $0 + ($1.ruleIndex == ruleIndex ? 1 : 0) }
        if count >= rules[ruleIndex].maximumInstances, let oldest = state.instances.firstIndex(where: { $0.ruleIndex == ruleIndex }) {
            state.instances.remove(at: oldest)
        }
        var event = ActiveOverlay(ruleIndex: ruleIndex, start: pts, box: reading.box)
        event.matchedThisFrame = false
        state.instances.append(event)
    }

    // MARK: - Life cycle and drawing

    /// Ages `overlay` to `pts`; false when it has ended.
    private func advance(_ overlay: inout ActiveOverlay, pts: Duration) -> Bool {
        let rule = rules[overlay.ruleIndex]
        // A timestamp that jumps backwards (looping input) restarts the overlay's clock.
        if pts < overlay.start { overlay.start = pts }
        if case .always = rule.trigger { return true }
        if let gone = overlay.goneSince, pts - gone >= rule.fadeOut { return false }
        if pts - overlay.start >= rule.maximumAge {
            guard case .detection = rule.trigger, overlay.matchedThisFrame else { return false }
            overlay.isExpired = true
        }
        if overlay.isExpired && !overlay.matchedThisFrame { return false }
        return true
    }

    /// Opacity of `overlay` at `pts`: the rule's, times fade-in, fade-out after its detection left, and fade-out
    /// before its maximum age.
    func opacity(of overlay: ActiveOverlay, pts: Duration) -> Double {
        let rule = rules[overlay.ruleIndex]
        if case .always = rule.trigger { return rule.opacity }
        if overlay.isExpired { return 0 }
        func ramp(_ elapsed: Duration, over length: Duration) -> Double {
            length <= .zero ? (elapsed >= .zero ? 1 : 0) : max(0, min(1, elapsed / length))
        }
        var level = rule.opacity * ramp(pts - overlay.start, over: rule.fadeIn)
        if let gone = overlay.goneSince { level *= 1 - ramp(pts - gone, over: rule.fadeOut) }
        level *= ramp(rule.maximumAge - (pts - overlay.start), over: rule.fadeOut)
        return level
    }

    private func draw(instanceAt position: Int, on frame: YUVPlanes, pts: Duration, state: inout StageState) {
        let overlay = state.instances[position]
        let rule = rules[overlay.ruleIndex]
        let level = opacity(of: overlay, pts: pts)
        guard level > 0, let request = Self.request(for: rule, box: overlay.box) else { return }
        let clip: any OverlayClipSource
        switch cache.lookUp(request) {
        case .ready(let ready):
            clip = ready
            state.instances[position].clip = ready
        case .loading:
            guard let previous = overlay.clip else { return }
            clip = previous
        case .failed(let error):
            disable(ruleIndex: overlay.ruleIndex, error: error, in: &state)
            return
        }
        let tile = clip.frame(at: LoopClock(timing: clip.timing, origin: overlay.start).frameIndex(at: pts))
        let origin = Self.origin(of: tile, rule: rule, box: overlay.box, frameWidth: frame.width, frameHeight: frame.height)
        TileBlender.blend(tile, onto: frame, x: origin.x, y: origin.y, opacity: level)
    }

    private func disable(ruleIndex: Int, error: OverlayError, in state: inout StageState) {
        guard !state.rules[ruleIndex].isDisabled else { return }
        state.rules[ruleIndex].isDisabled = true
        state.disabledClips.append(rules[ruleIndex].path)
        warn("\(error); that overlay rule is disabled, the run continues")
    }

    // MARK: - Geometry

    /// The clip size a rule needs now; nil for a box placement without a box.
    static func request(for rule: OverlayRule, box: BoundingBox?) -> OverlayClipRequest? {
        switch rule.placement {
        case .fixed(_, _, let width, let height), .corner(_, _, let width, let height):
            return OverlayClipRequest(path: rule.path, width: width, height: height)
        case .box(_, let scale, let minimumWidth, let maximumWidth):
            guard let box, box.width.isFinite else { return nil }
            let width = sizeStep(for: box.width * scale, minimum: minimumWidth, maximum: maximumWidth)
            return OverlayClipRequest(path: rule.path, width: width, height: nil)
        }
    }

    /// Box-scaled overlays are decoded at a few sizes only: `minimum × 1.25ᵏ` (even, capped at `maximum`), the step
    /// nearest to `target` on a log scale. Sizes are off by at most ±12 %, and a growing box loads a new size only
    /// every 25 %.
    static func sizeStep(for target: Double, minimum: Int, maximum: Int) -> Int {
        var step = Double(minimum)
        // √1.25 ≈ 1.118: move up while the target is nearer the next step than this one.
        while step * 1.25 <= Double(maximum) && target >= step * 1.118_034 { step *= 1.25 }
        return max(2, min(maximum, Int(step.rounded())) & ~1)
    }

    /// Top-left position of `tile` for `rule`.
    static func origin(of tile: OverlayTile, rule: OverlayRule, box: BoundingBox?, frameWidth: Int, frameHeight: Int) -> (x: Int, y: Int) {
        switch rule.placement {
        case .fixed(let x, let y, _, _):
            return (x, y)
        case .corner(let corner, let margin, _, _):
            return corner.origin(width: tile.width, height: tile.height, frameWidth: frameWidth, frameHeight: frameHeight, margin: margin)
        case .box(let anchor, _, _, _):
            guard let box else { return (0, 0) }
            let (pointX, pointY): (Double, Double)
            let halfWidth = Double(tile.width) / 2, halfHeight = Double(tile.height) / 2
            switch anchor {
            case .centre: (pointX, pointY) = (box.center.x - halfWidth, box.center.y - halfHeight)
            case .top: (pointX, pointY) = (box.center.x - halfWidth, box.y - Double(tile.height))
            case .bottom: (pointX, pointY) = (box.center.x - halfWidth, box.maxY)
            case .topLeft: (pointX, pointY) = (box.x - halfWidth, box.y - halfHeight)
            case .topRight: (pointX, pointY) = (box.maxX - halfWidth, box.y - halfHeight)
            case .bottomLeft: (pointX, pointY) = (box.x - halfWidth, box.maxY - halfHeight)
            case .bottomRight: (pointX, pointY) = (box.maxX - halfWidth, box.maxY - halfHeight)
            }
            return (Int(pointX.rounded()), Int(pointY.rounded()))
        }
    }
}

/// What the overlay stage did, for the run report.
public struct OverlayStageReport: Sendable, Equatable {
    public var cache: OverlayCacheReport
    /// Overlays on screen now.
    public var activeOverlays: Int
    /// Clips whose rule was disabled because they could not be loaded.
    public var disabledClips: [String]
}
