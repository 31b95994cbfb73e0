/// Columns of text aligned to the widest cell, shrunk to fit a width by truncating the widest
/// columns first, with an ellipsis, so that nothing wraps.
///
/// A row's cells are made when they are measured and again when the row is printed, never kept: a
/// list of 100,000 orders is printed without a table of its cells in memory beside it.
struct Table<Row> {
    var headers: [String]
    var rows: [Row]
    /// A row's cells, one per header.
    var cells: (Row) -> [String]
    /// Columns that must not be truncated (identifiers, amounts).
    var fixed: Set<Int> = []

    /// The widest a flexible column grows, whatever the width it may take: a cell the API sent
    /// 100 KiB long (a name, an email) shows its start and an ellipsis, on a terminal or in a pipe.
    static var widestCell: Int { 60 }

    /// The header line, then one line per row, each made as it is read.
    func lines(fitting width: Int?) -> some Sequence<String> {
        lines(widths: columnWidths(fitting: width), header: true)
    }

    /// The rows cut to `widths`, after the header line when `header`: a long list printed a page
    /// at a time keeps the first page's widths, so its columns line up.
    func lines(widths: [Int], header: Bool) -> some Sequence<String> {
        let line = { (cells: [String]) -> String in
            let joined = cells.indices.map { column in
                let cell = Self.truncate(cells[column], to: widths[column])
                return column == cells.count - 1 ? cell : cell.padding(to: widths[column])
            }
            .joined(separator: "  ")
            // Empty last cells leave the padding before them: no line ends in spaces.
            return String(
                joined[..<(joined.lastIndex { $0 != " " }.map(joined.index(after:)) ?? joined.startIndex)])
        }
        return ((header ? -1 : 0)..<rows.count).lazy.map { $0 < 0 ? line(headers) : line(cells(rows[$0])) }
    }

    /// Each column's width: its widest cell, less what fitting `width` takes from the widest
    /// flexible columns.
    func columnWidths(fitting width: Int?) -> [Int] {
        var widths = headers.map(\.displayWidth)
        for row in rows {
            for (column, cell) in cells(row).enumerated() where column < widths.count {
                let shown =
                    fixed.contains(column) ? cell.displayWidth : min(cell.displayWidth, Self.widestCell)
                widths[column] = max(widths[column], shown)
            }
        }
        guard let width else { return widths }
        let separators = 2 * (widths.count - 1)
        while widths.reduce(separators, +) > width {
            let flexible = widths.indices.filter { !fixed.contains($0) && widths[$0] > 4 }
            guard let widest = flexible.max(by: { widths[$0] < widths[$1] }) else { break }
            widths[widest] -= 1
        }
        return widths
    }

    private static func truncate(_ text: String, to width: Int) -> String {
        text.displayWidth <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }
}

extension String {
    /// How many characters the text shows: its byte count when it is ASCII (most cells), which
    /// is cheap, else its count of characters.
    var displayWidth: Int {
        utf8.allSatisfy { $0 < 0x80 } ? utf8.count : count
    }

    func padding(to width: Int) -> String {
        let shown = displayWidth
        return shown >= width ? self : self + String(repeating: " ", count: width - shown)
    }
}

extension Table<[String]> {
    /// A table of cells already made (a few rows).
    init(headers: [String], rows: [[String]], fixed: Set<Int> = []) {
        self.init(headers: headers, rows: rows, cells: { $0 }, fixed: fixed)
    }
}
