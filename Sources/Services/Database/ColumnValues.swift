public import Foundation

/// Typed reads of a row's columns by name: the same accessors, and the same messages when a
/// column is missing or holds something else, for a ``Row`` and for a ``ColumnReader``.
public protocol ColumnValues {
    /// The value of `column`, or `nil` if the result has no such column.
    ///
    /// - Parameter column: A column name, as in the query.
    subscript(_ column: String) -> SQLValue? { get }
}

extension ColumnValues {
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
    /// - Throws: ``DatabaseError`` when the column is missing, holds something else, or holds an
    ///   integer `Int` cannot hold (on a 32-bit platform).
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
        guard let value = self[column] else { throw error("no column \(column) in the result") }
        return value
    }

    private func mismatch(_ column: String, _ expected: String) -> DatabaseError {
        error("column \(column) holds \(self[column].map { "\($0)" } ?? "nothing"), not \(expected)")
    }

    /// A type mismatch, naming the file and the query when the row is read straight from SQLite
    /// (a ``Row`` has left both behind).
    private func error(_ message: String) -> DatabaseError {
        let reader = self as? ColumnReader
        return DatabaseError(
            kind: .typeMismatch, message: message, path: reader?.connection.path ?? "", sql: reader?.sql)
    }
}
