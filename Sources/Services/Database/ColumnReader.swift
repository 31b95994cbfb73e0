import CSQLite  // SQLite, on every platform: Package.swift says how
// The SQLite seam: Apple platforms link the SDK's own SQLite (its `SQLite3` module); Linux the
// system library through `CSQLite` (pkg-config `sqlite3`, Package.swift).
import Foundation

/// The current row of a query, read column by column straight from SQLite, without copying the row
/// first: what ``Connection/query(_:_:map:)`` hands its `map` closure.
///
/// It is only valid inside that closure. Its typed reads are ``ColumnValues``'s, as a ``Row``'s.
public struct ColumnReader: ColumnValues {
    let statement: OpaquePointer
    let columns: ColumnNames
    let connection: Connection
    let sql: String

    /// The value of `column`, read from SQLite as it is asked for, or `nil` if the result has no
    /// such column.
    ///
    /// - Parameter column: A column name, as in the query.
    public subscript(_ column: String) -> SQLValue? {
        columns.index(of: column).map { value(at: Int32($0)) }
    }

    /// The value at a column's position.
    func value(at index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(statement, index) else { return .text("") }
            // By its length in bytes: a NUL inside the text is part of it.
            let count = Int(sqlite3_column_bytes(statement, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            // An empty blob reads as no pointer at all.
            guard let bytes = sqlite3_column_blob(statement, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default:
            return .null
        }
    }
}
