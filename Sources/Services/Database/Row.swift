public import Foundation

/// One row of a query result, read by column name.
public struct Row: Sendable, Equatable {
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

    /// The text in `column`.
    ///
    /// - Parameter column: A column name.
    /// - Returns: The text.
    /// - Throws: ``DatabaseError`` when the column is missing or holds something else.
    public func string(_ column: String) throws -> String {
        guard case .text(let text) = try value(column) else { throw mismatch(column, "text") }
        return text
    }

    /// The text in `column`, or `nil` for `NULL`.
    ///
    /// - Parameter column: A column name.
    /// - Returns: The text or `nil`.
    /// - Throws: ``DatabaseError`` when the column is missing or holds something else.
    public func optionalString(_ column: String) throws -> String? {
        switch try value(column) {
        case .null: return nil
        case .text(let text): return text
        default: throw mismatch(column, "text or NULL")
        }
    }

    /// The integer in `column`.
    ///
    /// - Parameter column: A column name.
    /// - Returns: The integer.
    /// - Throws: ``DatabaseError`` when the column is missing or holds something else.
    public func int(_ column: String) throws -> Int {
        guard case .integer(let integer) = try value(column) else { throw mismatch(column, "integer") }
        return try Int(database: integer, column: column)
    }

    /// The number in `column`, integer or real.
    ///
    /// - Parameter column: A column name.
    /// - Returns: The number.
    /// - Throws: ``DatabaseError`` when the column is missing or holds something else.
    public func double(_ column: String) throws -> Double {
        switch try value(column) {
        case .real(let real): return real
        case .integer(let integer): return Double(integer)
        default: throw mismatch(column, "number")
        }
    }

    /// The bytes in `column`.
    ///
    /// - Parameter column: A column name.
    /// - Returns: The bytes.
    /// - Throws: ``DatabaseError`` when the column is missing or holds something else.
    public func data(_ column: String) throws -> Data {
        guard case .blob(let data) = try value(column) else { throw mismatch(column, "bytes") }
        return data
    }

    private func value(_ column: String) throws -> SQLValue {
        guard let value = self[column] else {
            throw DatabaseError(kind: .typeMismatch, message: "no column \(column) in the result")
        }
        return value
    }

    private func mismatch(_ column: String, _ expected: String) -> DatabaseError {
        DatabaseError(
            kind: .typeMismatch,
            message: "column \(column) holds \(self[column].map { "\($0)" } ?? "nothing"), not \(expected)")
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
