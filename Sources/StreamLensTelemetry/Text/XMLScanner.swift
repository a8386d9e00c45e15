/// A small XML reader for GPX: start tags with their attributes, end tags and text, in document order. It skips the
/// XML declaration, processing instructions, comments and the DOCTYPE, reads CDATA as text, and decodes the five
/// predefined entities and numeric character references. Names lose their namespace prefix (`gpxtpx:speed` →
/// `speed`). It checks only what GPX reading needs: a tag left open is reported, not guessed.
///
/// Why not `XMLParser`: on Linux it lives in FoundationXML, which links libxml2 — one more C library the statically
/// linked release binary would have to carry, for reading one element type.
struct XMLScanner {
    enum Event: Equatable {
        case start(name: String, attributes: [String: String])
        case end(name: String)
        case text(String)
    }

    enum Failure: Error, Equatable {
        case unterminated(String)
    }

    static func events(in text: String) throws(Failure) -> [Event] {
        let bytes = Array(text.utf8)
        var events: [Event] = []
        var index = 0
        func find(_ needle: [UInt8], from start: Int) -> Int? {
            guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
            var position = start
            while position + needle.count <= bytes.count {
                if bytes[position] == needle[0], bytes[position..<position + needle.count].elementsEqual(needle) {
                    return position
                }
                position += 1
            }
            return nil
        }
        while index < bytes.count {
            guard let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) else {
                let tail = decode(bytes[index...])
                if !tail.allSatisfy(\.isWhitespace) { events.append(.text(tail)) }
                break
            }
            if open > index {
                let content = decode(bytes[index..<open])
                if !content.allSatisfy(\.isWhitespace) { events.append(.text(content)) }
            }
            if let skip = skipped(at: open, find: find) {
                guard let end = skip.end else { throw .unterminated(skip.what) }
                if skip.what == "CDATA" {
                    events.append(.text(String(decoding: bytes[open + 9..<end], as: UTF8.self)))
                }
                index = end + skip.closer
                continue
            }
            guard let close = find([UInt8(ascii: ">")], from: open) else { throw .unterminated("tag") }
            events.append(contentsOf: tag(bytes[open + 1..<close]))
            index = close + 1
        }
        return events
    }

    /// Markup that is no element: where it ends and how long its closer is.
    private static func skipped(
        at open: Int, find: ([UInt8], Int) -> Int?
    ) -> (what: String, end: Int?, closer: Int)? {
        let markers: [(String, String, String)] = [
            ("<!--", "-->", "comment"), ("<![CDATA[", "]]>", "CDATA"), ("<?", "?>", "processing instruction"),
            ("<!", ">", "declaration"),
        ]
        for (opener, closer, what) in markers where find(Array(opener.utf8), open) == open {
            let body = what == "CDATA" ? open : open + opener.utf8.count
            return (what, find(Array(closer.utf8), body), closer.utf8.count)
        }
        return nil
    }

    /// The events of one tag's inside (`trkpt lat="1" lon="2"`, `/trkpt`, `ele/`).
    private static func tag(_ inside: ArraySlice<UInt8>) -> [Event] {
        var body = inside
        if body.first == UInt8(ascii: "/") {
            return [.end(name: localName(String(decoding: body.dropFirst(), as: UTF8.self)))]
        }
        var selfClosing = false
        if body.last == UInt8(ascii: "/") {
            selfClosing = true
            body = body.dropLast()
        }
        let nameEnd = body.firstIndex { $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 } ?? body.endIndex
        let name = localName(String(decoding: body[body.startIndex..<nameEnd], as: UTF8.self))
        var attributes: [String: String] = [:]
        var position = nameEnd
        while position < body.endIndex {
            guard let equals = body[position...].firstIndex(of: UInt8(ascii: "=")) else { break }
            let key = localName(String(decoding: body[position..<equals], as: UTF8.self))
            guard let quoteIndex = body[(equals + 1)...].firstIndex(where: { $0 == 34 || $0 == 39 }),
                let endQuote = body[(quoteIndex + 1)...].firstIndex(of: body[quoteIndex])
            else { break }
            attributes[key] = decode(body[(quoteIndex + 1)..<endQuote])
            position = endQuote + 1
        }
        let start = Event.start(name: name, attributes: attributes)
        return selfClosing ? [start, .end(name: name)] : [start]
    }

    private static func localName(_ raw: String) -> String {
        let trimmed = raw.trimmingWhitespace
        return trimmed.split(separator: ":").last.map(String.init) ?? trimmed
    }

    /// Text with its entities decoded.
    private static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        let raw = String(decoding: bytes, as: UTF8.self)
        guard raw.contains("&") else { return raw }
        var result = ""
        var rest = raw[...]
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) { result.unicodeScalars.append(scalar) }
                else { result += "&\(entity);" }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}

extension StringProtocol {
    var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
