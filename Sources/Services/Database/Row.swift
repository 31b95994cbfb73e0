import Foundation

/// One row of a query result, read by column name.
public struct Row: ColumnValues, Sendable, Equatable {
    /// The column names, shared by every row of one result.
    let columns: ColumnNames
    /// The values, in column order.
    public let values: [SQLValue]

    /// The value of `column`, or `nil` if the result has no such column.
    ///
    /// - Parameter column: A column name, as in the query.
    public subscript(_ column: String) -> SQLValue? {
        columns.index(of: column).map { values[$0] }
    }
}

/// The column names of a result and a lookup from name to position.
///
/// Results have a handful of columns with short names, so a linear scan beats hashing the name for
/// every value read. The scan compares lengths before names: `==` on two different strings takes
/// the general comparison (over 100 instructions when one is too long to be stored inline), and it
/// ran for every column before the one asked for, for every value read.
final class ColumnNames: Sendable, Equatable {
    let names: [String]
    /// The UTF-8 length of each name, by position.
    private let lengths: [Int]

    init(_ names: [String]) {
        self.names = names
        lengths = names.map(\.utf8.count)
    }

    func index(of name: String) -> Int? {
        let length = name.utf8.count
        for index in names.indices where lengths[index] == length && names[index] == name {
            return index
        }
        return nil
    }

    static func == (lhs: ColumnNames, rhs: ColumnNames) -> Bool {
        lhs.names == rhs.names
    }
}
