/// A plain-text table with aligned columns; cells may carry an ANSI colour applied after padding, so colours never
/// disturb the alignment.
struct TextTable {
    enum Alignment { case left, right }

    enum Colour: String {
        case green = "\u{1B}[32m"
        case red = "\u{1B}[31m"
        case bold = "\u{1B}[1m"
        static let reset = "\u{1B}[0m"
    }

    struct Cell {
        var text: String
        var colour: Colour?

        init(_ text: String, colour: Colour? = nil) {
            self.text = text
            self.colour = colour
        }
    }

    let alignments: [Alignment]
    private(set) var rows: [[Cell]] = []

    init(alignments: [Alignment]) { self.alignments = alignments }

    mutating func add(_ cells: [Cell]) { rows.append(cells) }
    mutating func add(_ texts: String...) { rows.append(texts.map { Cell($0) }) }

    /// The table as lines joined by newlines, columns two spaces apart, without trailing spaces. Colours are written
    /// only when `colour` is true.
    func render(colour: Bool) -> String {
        var widths = [Int](repeating: 0, count: alignments.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], cell.text.count)
            }
        }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() where column < widths.count {
                let padding = String(repeating: " ", count: widths[column] - cell.text.count)
                var text = cell.text
                if colour, let tint = cell.colour { text = tint.rawValue + text + Colour.reset }
                if column > 0 { line += "  " }
                line += alignments[column] == .left ? text + padding : padding + text
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
