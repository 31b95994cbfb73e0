import CSQLite  // SQLite, on every platform: Package.swift says how
import Foundation

/// `SQLITE_TRANSIENT`: tells SQLite to copy text and blobs while binding them. The C macro casts -1
/// to a destructor pointer, which Swift does not import, so it is spelled out here, once.
let sqliteTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// An open SQLite connection, handed to the closures of ``Database/read(_:)`` and
/// ``Database/write(_:)``.
///
/// It is only valid inside that closure, on the database's queue: do not keep it. Statements are
/// prepared once per SQL text and reused, and values are always bound as parameters.
public final class Connection {
    let handle: OpaquePointer
    package let path: String
    private var statements: [String: OpaquePointer] = [:]
    /// The tables changed by this connection's statements since a write last took them.
    let changedTables = ChangedTables()
    /// How many statements and write transactions this connection has run: what a test counts to
    /// hold a walk to its size (read on the database's queue, like everything here).
    package private(set) var work = Work()

    /// Counts a write's body, about to run.
    func countWrite() {
        work.writes += 1
    }

    /// Statements and write transactions run, counted.
    package struct Work: Equatable, Sendable {
        /// Statements run with parameters (the transactions' `BEGIN` and `COMMIT` are not counted:
        /// how many writes share one commit depends on their timing).
        package var statements = 0
        /// Writes run (``Database/write(_:)``'s bodies), each in a transaction of its own or in a
        /// savepoint of a commit it shares.
        package var writes = 0

        /// What was run after `earlier`.
        package func since(_ earlier: Work) -> Work {
            Work(statements: statements - earlier.statements, writes: writes - earlier.writes)
        }
    }

    init(path: String, flags: Int32) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = DatabaseError(code: code, handle: handle, path: path)
            sqlite3_close_v2(handle)
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
        self.handle = handle
        self.path = path
        changedTables.install(on: handle)
    }

    deinit {
        for statement in statements.values {
            sqlite3_finalize(statement)
        }
        sqlite3_close_v2(handle)
    }

    /// Runs one statement with its parameters bound in order.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement with `?` placeholders.
    ///   - parameters: The values for the placeholders.
    /// - Returns: How many rows the statement changed.
    /// - Throws: ``DatabaseError`` saying what failed.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [SQLValue] = []) throws -> Int {
        let statement = try prepared(sql, parameters)
        defer { sqlite3_reset(statement) }
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW {
            code = sqlite3_step(statement)
        }
        guard code == SQLITE_DONE else { throw failure(code, sql) }
        return Int(sqlite3_changes(handle))
    }

    /// Runs a query and returns every row.
    ///
    /// - Parameters:
    ///   - sql: One SQL query with `?` placeholders.
    ///   - parameters: The values for the placeholders.
    /// - Returns: The rows, in the order SQLite gives them.
    /// - Throws: ``DatabaseError`` saying what failed.
    public func query(_ sql: String, _ parameters: [SQLValue] = []) throws -> [Row] {
        try query(sql, parameters) { reader in
            Row(
                columns: reader.columns,
                values: reader.columns.names.indices.map { reader.value(at: Int32($0)) })
        }
    }

    /// Runs a query and turns each row into a value as it comes, without copying rows first: the
    /// fast way to read many rows.
    ///
    /// - Parameters:
    ///   - sql: One SQL query with `?` placeholders.
    ///   - parameters: The values for the placeholders.
    ///   - map: Makes a value from the current row; the reader is only valid inside it.
    /// - Returns: One value per row, in the order SQLite gives them.
    /// - Throws: ``DatabaseError`` saying what failed, or what `map` throws.
    public func query<Value>(
        _ sql: String, _ parameters: [SQLValue] = [], map: (ColumnReader) throws -> Value
    ) throws -> [Value] {
        try query(sql, parameters, reservingCapacity: 0, map: map)
    }

    /// Runs a query as ``query(_:_:map:)`` does, with room for `capacity` values made first: a
    /// large read whose row count is known (a `count(*)` in the same transaction) is then built in
    /// one allocation instead of by doubling, which holds two copies at once as it grows.
    ///
    /// - Parameters:
    ///   - sql: One SQL query with `?` placeholders.
    ///   - parameters: The values for the placeholders.
    ///   - capacity: How many rows to make room for; more rows still all come.
    ///   - map: Makes a value from the current row; the reader is only valid inside it.
    /// - Returns: One value per row, in the order SQLite gives them.
    /// - Throws: ``DatabaseError`` saying what failed, or what `map` throws.
    public func query<Value>(
        _ sql: String, _ parameters: [SQLValue] = [], reservingCapacity capacity: Int,
        map: (ColumnReader) throws -> Value
    ) throws -> [Value] {
        let statement = try prepared(sql, parameters)
        defer { sqlite3_reset(statement) }
        let count = sqlite3_column_count(statement)
        let reader = ColumnReader(
            statement: statement,
            columns: ColumnNames((0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }),
            connection: self, sql: sql)
        var values: [Value] = []
        values.reserveCapacity(max(0, capacity))
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW {
            values.append(try map(reader))
            code = sqlite3_step(statement)
        }
        guard code == SQLITE_DONE else { throw failure(code, sql) }
        return values
    }

    /// The first column of the first row, or `nil` when there is no row.
    ///
    /// - Parameters:
    ///   - sql: One SQL query with `?` placeholders.
    ///   - parameters: The values for the placeholders.
    /// - Returns: The value, or `nil`.
    /// - Throws: ``DatabaseError`` saying what failed.
    public func scalar(_ sql: String, _ parameters: [SQLValue] = []) throws -> SQLValue? {
        try query(sql, parameters).first?.values.first
    }

    /// Runs statements that take no values, such as a migration's `CREATE TABLE`.
    func executeScript(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure(code, sql) }
    }

    /// Runs `body` in a transaction that commits if it returns and rolls back if it throws.
    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try executeScript("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try executeScript("COMMIT")
            return result
        } catch {
            try? executeScript("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` in a savepoint of the open transaction: its changes are kept if it returns,
    /// undone (and nothing else) if it throws.
    func savepoint<Result>(_ body: () throws -> Result) throws -> Result {
        try executeScript("SAVEPOINT write")
        do {
            let result = try body()
            try executeScript("RELEASE write")
            return result
        } catch {
            // The transaction may be gone already (an error SQLite ends it with): nothing to undo.
            try? executeScript("ROLLBACK TO write")
            try? executeScript("RELEASE write")
            throw error
        }
    }

    private func prepared(_ sql: String, _ parameters: [SQLValue]) throws -> OpaquePointer {
        work.statements += 1
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
        } else {
            var fresh: OpaquePointer?
            let code = sqlite3_prepare_v2(handle, sql, -1, &fresh, nil)
            guard code == SQLITE_OK, let fresh else { throw failure(code, sql) }
            statements[sql] = fresh
            statement = fresh
        }
        // Every parameter is bound below (the count is checked first): no value of an earlier
        // run stays, so the bindings need no clearing.
        let expected = Int(sqlite3_bind_parameter_count(statement))
        guard expected == parameters.count else {
            throw DatabaseError(
                kind: .other, message: "\(parameters.count) values for \(expected) parameters", path: path,
                sql: sql)
        }
        for (offset, value) in parameters.enumerated() {
            let code = bind(value, to: statement, at: Int32(offset + 1))
            guard code == SQLITE_OK else { throw failure(code, sql) }
        }
        return statement
    }

    private func bind(_ value: SQLValue, to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch value {
        case .null:
            sqlite3_bind_null(statement, index)
        case .integer(let integer):
            sqlite3_bind_int64(statement, index, integer)
        case .real(let real):
            sqlite3_bind_double(statement, index, real)
        case .text(let text):
            // By its length in bytes: a NUL inside the text is kept, not taken for its end.
            sqlite3_bind_text64(
                statement, index, text, sqlite3_uint64(text.utf8.count), sqliteTransient, UInt8(SQLITE_UTF8))
        case .blob(let data) where data.isEmpty:
            // An empty buffer may have no address, which SQLite would bind as NULL.
            sqlite3_bind_zeroblob(statement, index, 0)
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                sqlite3_bind_blob64(
                    statement, index, bytes.baseAddress, sqlite3_uint64(bytes.count), sqliteTransient)
            }
        }
    }

    func failure(_ code: Int32, _ sql: String?) -> DatabaseError {
        DatabaseError(code: code, handle: handle, path: path, sql: sql)
    }
}
