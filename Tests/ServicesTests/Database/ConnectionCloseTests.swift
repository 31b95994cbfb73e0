import CSQLite  // SQLite, on every platform: Package.swift says how
import Foundation
import PromiseMVPTesting
import Testing

@testable import Services

/// A connection let go lets go of its file: what it kept open (its cached statements, its handle)
/// is finalized and closed, so the last connection's close checkpoints the log and removes it.
@Suite("Connection: closing")
struct ConnectionCloseTests {
    @Test("a connection let go finalizes its statements and closes: its -wal is checkpointed and removed")
    func closesItsFile() throws {
        // Given: a connection in WAL mode that wrote, and read through a statement it keeps
        let folder = TemporaryFolder("ConnectionCloseTests")
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let path = folder.file("notes.sqlite").path
        var connection: Connection? = try Connection(
            path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX)
        _ = try connection?.query("PRAGMA journal_mode = WAL")
        _ = try connection?.execute("CREATE TABLE notes (title TEXT)")
        _ = try connection?.execute("INSERT INTO notes (title) VALUES (?)", [.text("Milk")])
        #expect(try connection?.query("SELECT title FROM notes").count == 1)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))

        // When
        connection = nil

        // Then: closed for good (a statement left unfinalized keeps a closed handle open, and the
        // log with it); what it wrote is in the file
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let reopened = try Connection(path: path, flags: SQLITE_OPEN_READONLY)
        #expect(try reopened.query("SELECT title FROM notes").first?.string("title") == "Milk")
    }
}
