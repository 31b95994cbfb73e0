// The SQLite seam: Apple platforms link the SDK's own SQLite (its `SQLite3` module); Linux the
// system library through `CSQLite` (pkg-config `sqlite3`, Package.swift).
#if canImport(Darwin)
    import SQLite3
#elseif os(Linux)
    import CSQLite
#else
    #error("The database is built on Apple's SQLite3 module and on Linux's libsqlite3")
#endif

/// The current row of a query, read column by column straight from SQLite, without copying the row
/// first: what ``Connection/query(_:_:map:)`` hands its `map` closure.
///
/// It is only valid inside that closure.
public struct ColumnReader {
    let statement: OpaquePointer
    let columns: ColumnNames
    let connection: Connection
    let sql: String

    /// The text in `column`.
    ///
    /// - Parameter column: A column name.
    /// - Returns: The text.
    /// - Throws: ``DatabaseError`` when the column is missing or holds something else.
    public func string(_ column: String) throws -> String {
        let index = try self.index(column)
        guard sqlite3_column_type(statement, index) == SQLITE_TEXT,
            let text = sqlite3_column_text(statement, index)
        else { throw mismatch(column, "text") }
        return String(cString: text)
    }

    /// The integer in `column`.
    ///
    /// - Parameter column: A column name.
    /// - Returns: The integer.
    /// - Throws: ``DatabaseError`` when the column is missing or holds something else.
    public func int(_ column: String) throws -> Int {
        let index = try self.index(column)
        guard sqlite3_column_type(statement, index) == SQLITE_INTEGER else {
            throw mismatch(column, "integer")
        }
        return try Int(database: sqlite3_column_int64(statement, index), column: column)
    }

    /// The number in `column`, integer or real.
    ///
    /// - Parameter column: A column name.
    /// - Returns: The number.
    /// - Throws: ``DatabaseError`` when the column is missing or holds something else.
    public func double(_ column: String) throws -> Double {
        let index = try self.index(column)
        switch sqlite3_column_type(statement, index) {
        case SQLITE_FLOAT, SQLITE_INTEGER: return sqlite3_column_double(statement, index)
        default: throw mismatch(column, "number")
        }
    }

    private func index(_ column: String) throws -> Int32 {
        guard let index = columns.index(of: column) else {
            throw DatabaseError(
                kind: .typeMismatch, message: "no column \(column) in the result", path: connection.path,
                sql: sql)
        }
        return Int32(index)
    }

    private func mismatch(_ column: String, _ expected: String) -> DatabaseError {
        DatabaseError(
            kind: .typeMismatch, message: "column \(column) is not \(expected)", path: connection.path,
            sql: sql)
    }
}
