import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The elements of one inline `<svg id=…>` of an HTML report, read with a real XML parser (the SVG must be
/// well-formed): what the report and GPS tests check the drive charts with.
public struct SVGElements {
    public enum ReadError: Error, CustomStringConvertible {
        case missing(id: String)
        case notWellFormed(id: String, reason: String)

        public var description: String {
            switch self {
            case .missing(let id): "the page has no complete <svg id=\"\(id)\">"
            case .notWellFormed(let id, let reason): "svg \(id) is not well-formed: \(reason)"
            }
        }
    }

    public private(set) var all: [(name: String, attributes: [String: String])] = []

    public init(html: String, id: String) throws {
        guard let start = html.range(of: "<svg id=\"\(id)\""),
            let end = html.range(of: "</svg>", range: start.upperBound..<html.endIndex)
        else { throw ReadError.missing(id: id) }
        let delegate = Collector()
        let parser = XMLParser(data: Data(html[start.lowerBound..<end.upperBound].utf8))
        parser.delegate = delegate
        guard parser.parse() else {
            throw ReadError.notWellFormed(id: id, reason: String(describing: parser.parserError))
        }
        all = delegate.elements
    }

    public func elements(named name: String, className: String) -> [[String: String]] {
        all.filter { $0.name == name && $0.attributes["class"] == className }.map(\.attributes)
    }

    /// A time as the page writes it: at most two decimals, no trailing zeros.
    public static func number(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String]
        ) {
            elements.append((elementName, attributes))
        }
    }
}
