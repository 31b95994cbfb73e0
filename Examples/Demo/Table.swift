/// Columns of text aligned to the widest cell, shrunk to fit a width by truncating the widest
/// columns first, with an ellipsis, so that nothing wraps.
struct Table {
    var headers: [String]
    var rows: [[String]]
    /// Columns that must not be truncated (identifiers, amounts).
    var fixed: Set<Int> = []

    func lines(fitting width: Int?) -> [String] {
        var widths = headers.indices.map { column in
            ([headers[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
        }
        if let width {
            let separators = 2 * (widths.count - 1)
            while widths.reduce(separators, +) > width {
                let flexible = widths.indices.filter { !fixed.contains($0) && widths[$0] > 4 }
                guard let widest = flexible.max(by: { widths[$0] < widths[$1] }) else { break }
                widths[widest] -= 1
            }
        }
        return ([headers] + rows).map { cells in
            cells.indices.map { column in
                let cell = Self.truncate(cells[column], to: widths[column])
                return column == cells.count - 1 ? cell : cell.padding(to: widths[column])
            }
            .joined(separator: "  ")
        }
    }

    private static func truncate(_ text: String, to width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
