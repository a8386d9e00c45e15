/// An overlay rule as written in the YAML configuration (decoded by the runner), before validation.
///
/// ```yaml
/// overlays:
///   - clip: media/overlays/gtk-logo.webm
///     when: always                 # always | class:NAME | speed_limit | speed_limit=50
///     at: 40,40                    # x,y | top-left|top-right|bottom-left|bottom-right | box:centre|top|bottom|top-left|…
///     size: 128,128                # optional w,h (fixed and corner placements)
///   - clip: media/overlays/marker.webm
///     when: class:person
///     min_confidence: 0.5
///     at: box:top
///     scale: 0.6                   # overlay width = 0.6 × box width …
///     min_width: 48                # … clamped to 48…256
///     max_width: 256
///     fade_in: 0.3                 # seconds
///     fade_out: 0.3
///     max_instances: 4
///     max_age: 30
///     opacity: 0.9
/// ```
public struct OverlayRuleConfiguration: Sendable, Codable, Equatable {
    public var clip: String
    public var when: String?
    public var at: String?
    public var size: String?
    public var margin: Int?
    public var scale: Double?
    public var minWidth: Int?
    public var maxWidth: Int?
    public var minConfidence: Double?
    public var fadeIn: Double?
    public var fadeOut: Double?
    public var maxInstances: Int?
    public var maxAge: Double?
    public var opacity: Double?

    enum CodingKeys: String, CodingKey {
        case clip, when, at, size, margin, scale, opacity
        case minWidth = "min_width", maxWidth = "max_width", minConfidence = "min_confidence"
        case fadeIn = "fade_in", fadeOut = "fade_out", maxInstances = "max_instances", maxAge = "max_age"
    }

    public init(clip: String, when: String? = nil, at: String? = nil, size: String? = nil) {
        self.clip = clip
        self.when = when
        self.at = at
        self.size = size
    }

    /// Validates the fields and builds the rule; relative clip paths are resolved against `baseDirectory`.
    public func makeRule(baseDirectory: String? = nil) throws(OverlayError) -> OverlayRule {
        let label = "\(clip) (when: \(when ?? "always"), at: \(at ?? "0,0"))"
        func fail(_ reason: String) -> OverlayError { .invalidSpecification(label, reason: reason) }
        let path = clip.hasPrefix("/") || baseDirectory == nil ? clip : "\(baseDirectory!)/\(clip)"

        let trigger: OverlayRule.Trigger
        switch when ?? "always" {
        case "always": trigger = .always
        case "speed_limit": trigger = .speedLimit(value: nil)
        case let text where text.hasPrefix("speed_limit="):
            // Compared with the value read ("50"): anything but a whole number would never show the clip.
            guard let value = Int(text.dropFirst(12)), value > 0 else {
                throw fail("'when: \(text)' needs a speed value, e.g. speed_limit=50")
            }
            trigger = .speedLimit(value: String(value))
        case let text where text.hasPrefix("class:") && text.count > 6:
            trigger = .detection(className: String(text.dropFirst(6)), minimumConfidence: minConfidence ?? 0)
        case let text: throw fail("unknown 'when: \(text)'; use always, class:NAME, speed_limit or speed_limit=VALUE")
        }

        let sizes = try size.map { text throws(OverlayError) -> (Int, Int) in
            let parts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let width = parts[0], let height = parts[1], width > 0, height > 0 else {
                throw fail("size must be two positive whole numbers: w,h")
            }
            return (width, height)
        }
        let placement: OverlayRule.Placement
        let position = at ?? "0,0"
        if position.hasPrefix("box:") {
            guard let anchor = OverlayRule.BoxAnchor(rawValue: String(position.dropFirst(4))) else {
                throw fail("unknown box anchor '\(position)'; use box:centre, box:top, box:bottom or box:top-left…")
            }
            let minimum = minWidth ?? 32, maximum = maxWidth ?? 512
            guard minimum > 0, maximum >= minimum else { throw fail("need 0 < min_width ≤ max_width") }
            placement = .box(anchor: anchor, scale: scale ?? 1, minimumWidth: minimum, maximumWidth: maximum)
        } else if let corner = FrameCorner(rawValue: position) {
            placement = .corner(corner, margin: margin ?? 16, width: sizes?.0, height: sizes?.1)
        } else {
            let parts = position.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let x = parts[0], let y = parts[1] else {
                throw fail("'at' must be x,y, a frame corner (top-left…) or box:ANCHOR")
            }
            placement = .fixed(x: x, y: y, width: sizes?.0, height: sizes?.1)
        }
        if case .box = placement, case .always = trigger { throw fail("an always-on overlay has no box to anchor to") }

        return OverlayRule(
            path: path, trigger: trigger, placement: placement,
            fadeIn: .milliseconds(Int64(((fadeIn ?? 0.3) * 1000).rounded())),
            fadeOut: .milliseconds(Int64(((fadeOut ?? 0.3) * 1000).rounded())),
            maximumInstances: maxInstances ?? 4,
            maximumAge: .milliseconds(Int64(((maxAge ?? 30) * 1000).rounded())),
            opacity: opacity ?? 1)
    }
}
