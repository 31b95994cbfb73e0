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
}
