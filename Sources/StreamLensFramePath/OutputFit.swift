import Foundation
import StreamLensGStreamer

/// The sizes an output's encoder and muxer accept: x264 encodes 4:2:0 only at even widths and heights ("Can not
/// initialize x264 encoder" otherwise), and mp4mux, qtmux and webmmux refuse frames under 16×16 (not-negotiated).
public struct OutputSizeRule: Sendable, Equatable {
    /// Width and height are padded up to a multiple of this.
    public var multiple: Int
    /// … and up to at least this.
    public var minimum: Int

    public init(multiple: Int, minimum: Int) {
        precondition(multiple >= 1 && minimum >= 1, "sizes are positive")
        self.multiple = multiple
        self.minimum = minimum
    }

    /// The smallest accepted size not below `size`.
    func fitted(_ size: Int) -> Int {
        max(minimum, (size + multiple - 1) / multiple * multiple)
    }
}

/// How frames were fitted to the output's size constraints (``OutputSizeRule``) on the way out.
///
/// Frames are padded with black columns on the right and rows at the bottom rather than cropped: no decoded pixel is
/// lost, and the picture keeps its place (analysis boxes stay where they were drawn).
public struct OutputFit: Sendable, Equatable, CustomStringConvertible {
    /// The decoded size.
    public var width: Int
    public var height: Int
    /// The size handed to the encoder.
    public var encodedWidth: Int
    public var encodedHeight: Int

    /// Always `pad` today (the name says what happened, for reports).
    public var mode: String { "pad" }

    /// "padded 641×361 to 642×362 (1 column right, 1 row bottom) for the encoder".
    public var description: String {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        var parts: [String] = []
        if encodedWidth > width { parts.append(count(encodedWidth - width, "column") + " right") }
        if encodedHeight > height { parts.append(count(encodedHeight - height, "row") + " bottom") }
        return "padded \(width)×\(height) to \(encodedWidth)×\(encodedHeight) "
            + "(\(parts.joined(separator: ", "))) for the encoder"
    }
}

/// Sets the output pipeline's `videobox` (named ``FramePath/outputFitName``) so that the encoder gets a size it
/// accepts. Called on the processing thread whenever the caps pushed to the output change; `videobox` reconfigures
/// itself and is in passthrough (no copy) while every border is 0.
final class OutputFitter {
    private let element: PipelineElement
    private let rule: OutputSizeRule

    init(element: PipelineElement, rule: OutputSizeRule) {
        self.element = element
        self.rule = rule
    }

    /// The size `format` is encoded at under the rule.
    func fitted(_ format: VideoFormat) -> (width: Int, height: Int) {
        (rule.fitted(format.width), rule.fitted(format.height))
    }

    /// Pads `format` to the rule; returns what was done, nil when the size already fitted.
    func fit(_ format: VideoFormat) -> OutputFit? {
        let fit = OutputFit(
            width: format.width, height: format.height,
            encodedWidth: rule.fitted(format.width), encodedHeight: rule.fitted(format.height))
        // videobox: a negative border adds that many pixels of fill (black) on that side.
        element.set("right", int: format.width - fit.encodedWidth)
        element.set("bottom", int: format.height - fit.encodedHeight)
        return fit.encodedWidth == fit.width && fit.encodedHeight == fit.height ? nil : fit
    }
}

/// The first time an input changed frame size partway: from what to what, and when (stream time).
public struct InputSizeChange: Sendable, Equatable, CustomStringConvertible {
    public var firstWidth: Int
    public var firstHeight: Int
    public var width: Int
    public var height: Int
    public var at: Duration?

    public var description: String {
        let when = at.map { String(format: " at %.2f s", $0.seconds) } ?? ""
        return "the input changes size\(when) (\(firstWidth)×\(firstHeight) → \(width)×\(height)): later frames "
            + "are scaled into \(firstWidth)×\(firstHeight), as one output keeps one size"
    }
}
