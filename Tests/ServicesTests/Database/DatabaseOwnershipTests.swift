import Foundation
import PromiseMVPTesting
import Testing

@testable import Services

/// Files this library makes carry its `application_id`; another app's file is refused before
/// anything is written to it.
@Suite("Database ownership")
struct DatabaseOwnershipTests {
    let folder = TemporaryFolder("DatabaseOwnershipTests")
    var file: URL { folder.file("app.sqlite") }

    /// A file made as another app (or an earlier version) would leave it: the library's marks
    /// taken off, `setUp` run on it, in the rollback journal so that no WAL file is left over.
    func makeFile(_ setUp: @escaping @Sendable (Connection) throws -> Void) async throws {
        let database = try Database(at: file)
        _ = await PromiseExpectations.value(
            of: database.read { connection in
                try connection.execute("PRAGMA journal_mode = DELETE")
                try connection.execute("PRAGMA application_id = 0")
                try connection.execute("DROP TABLE IF EXISTS schema_versions")
                try connection.execute("DROP TABLE IF EXISTS cache_stamps")
                try setUp(connection)
            })
    }

    func applicationID(of database: Database) async -> SQLValue? {
        await PromiseExpectations.value(of: database.read { try $0.scalar("PRAGMA application_id") }) ?? nil
    }

    @Test("a new file is marked as this library's")
    func newFileMarked() async throws {
        // Given / When
        let database = try Database(at: file)

        // Then
        #expect(await applicationID(of: database) == .integer(Int64(DatabaseOwnership.applicationID)))
    }

    @Test(
        "another app's file (its own tables, or its own application_id) is refused in one line naming it, and left byte-identical",
        arguments: [
            "CREATE TABLE orders (id TEXT PRIMARY KEY, owner TEXT)",
            "CREATE TABLE notes (id INTEGER); PRAGMA application_id = 42",
            // Named like ours, made by someone else: no longer adopted (it was, and then altered)
            "CREATE TABLE schema_versions (name TEXT PRIMARY KEY, version INTEGER NOT NULL); CREATE TABLE melodies (id INTEGER)",
            "CREATE TABLE schema_versions (name BLOB)",
            "CREATE TABLE songs (title TEXT); PRAGMA user_version = 1",
        ])
    func foreignFileRefused(setUp: String) async throws {
        // Given
        try await makeFile { try $0.executeScript(setUp) }
        let before = try Data(contentsOf: file)

        // When
        let error = #expect(throws: DatabaseError.self) { try Database(at: file) }

        // Then
        #expect(error?.kind == .madeByAnotherApp)
        let line = error?.description ?? ""
        #expect(line.contains(file.path) && line.contains("another app") && !line.contains("\n"), "\(line)")
        #expect(!line.contains("CREATE") && line.count < 300, "\(line)")
        let why =
            setUp.contains("application_id = 42") ? "its application_id is 42" : "it has tables of its own"
        #expect(line.contains(why), "\(line)")
        #expect(try Data(contentsOf: file) == before)
        let sidecars = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(sidecars == ["app.sqlite"])
    }

    @Test("an empty file is adopted")
    func emptyFileAdopted() async throws {
        // Given
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        try #require(FileManager.default.createFile(atPath: file.path, contents: Data()))
        try #require(try Data(contentsOf: file).isEmpty)

        // When
        let database = try Database(at: file)

        // Then
        #expect(await applicationID(of: database) == .integer(Int64(DatabaseOwnership.applicationID)))
    }
}
