import CSQLite  // SQLite, on every platform: Package.swift says how

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What went wrong in the embedded database, where, and while doing what.
public struct DatabaseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kind of failure, for a caller that reacts differently to each.
    ///
    /// More kinds may be added: a `switch` over it needs a `default` (or `@unknown default`).
    public enum Kind: Sendable, Equatable {
        /// The file exists but is not a SQLite database (or is encrypted): it was left untouched.
        case notADatabase
        /// The file is a SQLite database that another app made (another `application_id`, or
        /// tables of its own and none of this library's): it was left untouched.
        case madeByAnotherApp
        /// The database is damaged.
        case corrupt
        /// The file or its folder cannot be written.
        case readOnly
        /// Another connection held a lock for longer than the busy timeout.
        case busy
        /// The file could not be opened or created.
        case cannotOpen
        /// The disk is full.
        case diskFull
        /// A constraint (unique, not null, foreign key, check) refused the change.
        case constraint
        /// The schema lacks a table or column the statement uses.
        case missingSchema
        /// The file was written by a newer version of the app; it was not migrated or changed.
        case newerSchema(found: Int, known: Int)
        /// A column held a different type than the code reads.
        case typeMismatch
        /// The database is suspended (`Database/suspend()`): nothing runs until it is resumed.
        case suspended
        /// Any other SQLite failure; `code` tells which.
        case other
    }

    /// The kind of failure.
    public let kind: Kind
    /// SQLite's result code (0 when the failure was found by this library, not by SQLite).
    public let code: Int32
    /// SQLite's message, or this library's.
    public let message: String
    /// The database file, or `:memory:`.
    public var path: String
    /// The statement that failed, if any.
    public var sql: String?

    package init(kind: Kind, code: Int32 = 0, message: String, path: String = "", sql: String? = nil) {
        self.kind = kind
        self.code = code
        self.message = message
        self.path = path
        self.sql = sql
    }

    /// Reads the failure of the last call on `handle`.
    init(code: Int32, handle: OpaquePointer?, path: String, sql: String? = nil) {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        // The system's own error behind an I/O error: a full disk answers `SQLITE_IOERR_*` when
        // it is the `-shm` or the `-wal` that could not grow, not `SQLITE_FULL`.
        let systemError = handle.map { sqlite3_system_errno($0) } ?? 0
        self.init(
            kind: Self.kind(of: code, message: message ?? "", systemError: systemError),
            code: code,
            message: message ?? String(cString: sqlite3_errstr(code)),
            path: path,
            sql: sql)
    }

    /// One line for a log: the file, what happened, SQLite's code and message, and the statement.
    public var description: String {
        var line = "\(place): \(summary)"
        if code != 0 { line += " (SQLite \(code): \(message))" } else { line += " (\(message))" }
        if let sql { line += " while running: \(sql)" }
        return line
    }

    /// The file and what happened, without SQLite's internals: short enough for a notice
    /// ("/data/app.sqlite: the database is locked by another program").
    public var reason: String {
        switch kind {
        case .missingSchema, .constraint, .typeMismatch, .other:
            // The summary alone does not say which table, constraint or failure.
            "\(place): \(summary): \(message)"
        default:
            "\(place): \(summary)"
        }
    }

    /// The file, or "database" when it is not known.
    private var place: String {
        path.isEmpty ? "database" : path
    }

    /// What happened, and what can be done about it where something can.
    public var summary: String {
        switch kind {
        case .notADatabase: "this file is not a database; move it away or choose another path"
        case .madeByAnotherApp:
            "this database was made by another app; it was left untouched: choose another path"
        case .corrupt: "the database is damaged; restore it from a backup or delete it to start again"
        case .readOnly: "the database cannot be written; check the permissions of the file and its folder"
        case .busy: "the database is locked by another program"
        case .cannotOpen: "the database file cannot be opened or created"
        case .diskFull: "the disk is full"
        case .constraint: "a constraint refused the change"
        case .missingSchema: "a table or column is missing"
        case .newerSchema(let found, let known):
            "the database has schema version \(found), newer than the \(known) this version knows; it was left unchanged"
        case .typeMismatch: "a stored value has an unexpected type"
        case .suspended: "the database is suspended while the app is not running; it is resumed with the app"
        case .other: "SQLite failed"
        }
    }

    static func kind(of code: Int32, message: String, systemError: Int32 = 0) -> Kind {
        switch code & 0xFF {
        case SQLITE_IOERR where systemError == ENOSPC || systemError == EDQUOT: .diskFull
        case SQLITE_NOTADB: .notADatabase
        case SQLITE_CORRUPT: .corrupt
        case SQLITE_READONLY, SQLITE_PERM: .readOnly
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_CANTOPEN: .cannotOpen
        case SQLITE_FULL: .diskFull
        // Only `Database.suspend()` interrupts a statement.
        case SQLITE_INTERRUPT: .suspended
        case SQLITE_CONSTRAINT: .constraint
        case SQLITE_ERROR where message.hasPrefix("no such table") || message.hasPrefix("no such column"):
            .missingSchema
        default: .other
        }
    }
}
