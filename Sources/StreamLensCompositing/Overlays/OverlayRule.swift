/// When and where one overlay clip is drawn.
///
/// Three kinds of rule:
/// - always on: `--overlay PATH@x,y[,w,h]` (``parseAlwaysOn(_:)``), drawn from the first frame to the last;
/// - detection class → overlay: one overlay per matching detection (by track id, else by box overlap), anchored to
///   its box and scaled with it, fading in when it appears and out when it leaves or reaches ``maximumAge``;
/// - speed-limit event → overlay: shown for ``maximumAge`` each time a new limit is read (optionally one value).
public struct OverlayRule: Sendable, Equatable {
    public enum Trigger: Sendable, Equatable {
        case always
        /// Detections of `className` with at least `minimumConfidence`.
        case detection(className: String, minimumConfidence: Double)
        /// A newly read speed limit (class `speed_limit`, value in ``Detection/text``); nil matches any value.
        case speedLimit(value: String?)
    }

    /// Where on a detection's box an overlay sits.
    public enum BoxAnchor: String, Sendable, CaseIterable, Codable {
        /// Overlay centre on the box centre.
        case centre
        /// Overlay standing on the box's top edge, centred (a marker over a head).
        case top
        /// Overlay hanging from the box's bottom edge, centred.
        case bottom
        /// Overlay centred on a corner of the box.
        case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
    }

    public enum Placement: Sendable, Equatable {
        /// Top-left corner at (x, y) in frame pixels; nil sizes keep the clip's own size (or aspect).
        case fixed(x: Int, y: Int, width: Int?, height: Int?)
        /// In a frame corner, `margin` pixels from the edges.
        case corner(FrameCorner, margin: Int, width: Int?, height: Int?)
        /// On the detection's box: overlay width = `scale` × box width, clamped to `minimumWidth…maximumWidth`.
        case box(anchor: BoxAnchor, scale: Double, minimumWidth: Int, maximumWidth: Int)
    }

    public var path: String
    public var trigger: Trigger
    public var placement: Placement
    /// Seconds of fade-in and fade-out of triggered overlays (always-on overlays do not fade).
    public var fadeIn: Duration
    public var fadeOut: Duration
    /// At most this many overlays of the rule at once.
    public var maximumInstances: Int
    /// A triggered overlay ends (fading out) this long after it started, even if its detection stays.
    public var maximumAge: Duration
    /// 0…1, multiplies the clip's alpha.
    public var opacity: Double

    public init(
        path: String, trigger: Trigger, placement: Placement, fadeIn: Duration = .milliseconds(300),
        fadeOut: Duration = .milliseconds(300), maximumInstances: Int = 4, maximumAge: Duration = .seconds(30),
        opacity: Double = 1
    ) {
        self.path = path
        self.trigger = trigger
        self.placement = placement
        self.fadeIn = fadeIn
        self.fadeOut = fadeOut
        self.maximumInstances = max(1, maximumInstances)
        self.maximumAge = maximumAge
        self.opacity = max(0, min(1, opacity))
    }

    /// Parses the command line's always-on form `PATH@x,y[,w,h]` (the last `@` separates path and position, so
    /// paths may contain `@`).
    public static func parseAlwaysOn(_ specification: String) throws(OverlayError) -> OverlayRule {
        guard let at = specification.lastIndex(of: "@") else {
            throw .invalidSpecification(specification, reason: "expected PATH@x,y or PATH@x,y,w,h")
        }
        let path = String(specification[..<at])
        let numbers = specification[specification.index(after: at)...].split(separator: ",", omittingEmptySubsequences: false)
            .map { Int($0.trimmingCharacters(in: " ")) }
        guard !path.isEmpty else { throw .invalidSpecification(specification, reason: "the path is empty") }
        guard numbers.count == 2 || numbers.count == 4, numbers.allSatisfy({ $0 != nil }) else {
            throw .invalidSpecification(specification, reason: "expected two or four whole numbers after '@': x,y or x,y,w,h")
        }
        let values = numbers.map { $0! }
        if values.count == 4 && (values[2] <= 0 || values[3] <= 0) {
            throw .invalidSpecification(specification, reason: "width and height must be positive")
        }
        return OverlayRule(
            path: path, trigger: .always,
            placement: .fixed(x: values[0], y: values[1], width: values.count == 4 ? values[2] : nil,
                              height: values.count == 4 ? values[3] : nil))
    }
}

extension Substring {
    /// The substring without leading and trailing `characters`.
    fileprivate func trimmingCharacters(in characters: String) -> Substring {
        var result = self
        while let first = result.first, characters.contains(first) { result = result.dropFirst() }
        while let last = result.last, characters.contains(last) { result = result.dropLast() }
        return result
    }
}
