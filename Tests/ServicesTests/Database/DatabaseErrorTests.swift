import CSQLite  // SQLite, on every platform: Package.swift says how
import Foundation
import Testing

@testable import Services

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What SQLite's codes mean to a user: one row per code the kinds are told apart by.
@Suite("Database errors")
struct DatabaseErrorTests {
    @Test(
        "a full disk is 'full' whatever SQLite's code: SQLITE_FULL, or an I/O error the system answered ENOSPC or EDQUOT",
        arguments: [
            (SQLITE_FULL, Int32(0)), (SQLITE_IOERR | (19 << 8), ENOSPC), (SQLITE_IOERR | (4 << 8), ENOSPC),
            (SQLITE_IOERR, EDQUOT),
        ])
    func fullDisk(code: Int32, systemError: Int32) {
        // When
        let kind = DatabaseError.kind(of: code, message: "disk I/O error", systemError: systemError)

        // Then
        #expect(kind == .diskFull)
        #expect(
            DatabaseError(kind: kind, code: code, message: "disk I/O error", path: "/data/app.sqlite").reason
                == "/data/app.sqlite: the disk is full")
    }

    @Test("an I/O error of any other cause stays 'SQLite failed'")
    func otherIOError() {
        #expect(DatabaseError.kind(of: SQLITE_IOERR, message: "disk I/O error", systemError: EIO) == .other)
    }

    @Test(
        "one line for a log: SQLite's code and message when there is a code, the statement when there is one")
    func logLine() {
        // Given
        let locked = DatabaseError(
            kind: .busy, code: SQLITE_BUSY, message: "database is locked", path: "/data/app.sqlite",
            sql: "UPDATE notes SET text = ?")
        let refused = DatabaseError(kind: .readOnly, message: "opened read-only", path: "/data/app.sqlite")
        let newer = DatabaseError(kind: .newerSchema(found: 5, known: 3), message: "schema 5")

        // Then
        #expect(
            locked.description
                == "/data/app.sqlite: the database is locked by another program (SQLite 5: database is locked)"
                + " while running: UPDATE notes SET text = ?")
        #expect(
            refused.description
                == "/data/app.sqlite: the database cannot be written; check the permissions of the file and its folder"
                + " (opened read-only)")
        #expect(
            newer.summary.hasPrefix("the database has schema version 5, newer than the 3 this version knows"))
    }
}
