import Foundation

/// Builds one inline SVG chart as text. Coordinates are in SVG user units (pixels at 100 % zoom).
struct SVGCanvas {
    let width: Double
    let height: Double
    private var elements: [String] = []

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A rectangle; `data` become `data-*` attributes (what tests read back), `attributes` plain ones.
    mutating func rect(
        x: Double, y: Double, width: Double, height: Double, className: String, data: [(String, String)] = [],
        attributes: [(String, String)] = [], title: String? = nil
    ) {
        var tag = "<rect class=\"\(className)\" x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(max(0, width)))\" height=\"\(Self.number(max(0, height)))\""
        for (key, value) in attributes { tag += " \(key)=\"\(HTMLText.escape(value))\"" }
        for (key, value) in data { tag += " data-\(key)=\"\(HTMLText.escape(value))\"" }
        if let title {
            tag += "><title>\(HTMLText.escape(title))</title></rect>"
        } else {
            tag += "/>"
        }
        elements.append(tag)
    }

    mutating func line(
        x1: Double, y1: Double, x2: Double, y2: Double, className: String, data: [(String, String)] = [],
        attributes: [(String, String)] = []
    ) {
        var tag = "<line class=\"\(className)\" x1=\"\(Self.number(x1))\" y1=\"\(Self.number(y1))\" x2=\"\(Self.number(x2))\" y2=\"\(Self.number(y2))\""
        for (key, value) in attributes { tag += " \(key)=\"\(HTMLText.escape(value))\"" }
        for (key, value) in data { tag += " data-\(key)=\"\(HTMLText.escape(value))\"" }
        elements.append(tag + "/>")
    }

    /// A circle, optionally with a tooltip.
    mutating func circle(
        x: Double, y: Double, radius: Double, className: String, data: [(String, String)] = [], title: String? = nil
    ) {
        var tag = "<circle class=\"\(className)\" cx=\"\(Self.number(x))\" cy=\"\(Self.number(y))\" r=\"\(Self.number(radius))\""
        for (key, value) in data { tag += " data-\(key)=\"\(HTMLText.escape(value))\"" }
        elements.append(title.map { tag + "><title>\(HTMLText.escape($0))</title></circle>" } ?? tag + "/>")
    }

    /// An open line through `points`.
    mutating func polyline(_ points: [(x: Double, y: Double)], className: String, data: [(String, String)] = []) {
        var tag = "<polyline class=\"\(className)\" points=\""
            + points.map { "\(Self.number($0.x)),\(Self.number($0.y))" }.joined(separator: " ") + "\""
        for (key, value) in data { tag += " data-\(key)=\"\(HTMLText.escape(value))\"" }
        elements.append(tag + "/>")
    }

    mutating func text(_ content: String, x: Double, y: Double, className: String, anchor: String = "start") {
        elements.append(
            "<text class=\"\(className)\" x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" text-anchor=\"\(anchor)\">\(HTMLText.escape(content))</text>")
    }

    /// The finished `<svg>` element with an accessible label.
    func render(id: String, label: String) -> String {
        "<svg id=\"\(id)\" role=\"img\" aria-label=\"\(HTMLText.escape(label))\" viewBox=\"0 0 \(Self.number(width)) \(Self.number(height))\" width=\"\(Self.number(width))\" height=\"\(Self.number(height))\">\n"
            + elements.joined(separator: "\n") + "\n</svg>"
    }

    /// Coordinates with at most two decimals keep the page small.
    static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

/// Escaping for text placed in HTML or SVG.
enum HTMLText {
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
