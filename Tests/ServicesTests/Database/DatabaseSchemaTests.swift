import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// Schema versioning (`Connection+Migrations.swift`): one `schema_versions` row per schema, the
/// app's, each feature's and the library's own.
@Suite("Database feature schemas")
struct DatabaseSchemaTests {
    let temporary = TemporaryFolder("DatabaseSchemaTests")
    var folder: URL { temporary.url }
    static let songs = [Migration(version: 1, sql: "CREATE TABLE songs (id INTEGER PRIMARY KEY, title TEXT)")]
    static let albums = [
        Migration(version: 1, sql: "CREATE TABLE albums (id INTEGER PRIMARY KEY)"),
        Migration(version: 2, sql: "ALTER TABLE albums ADD COLUMN name TEXT"),
    ]

    @Test("two features keep their own tables and versions in one file")
    func twoSchemasInOneFile() async throws {
        // Given
        let database = try Database.inMemory()

        // When
        _ = await PromiseExpectations.value(of: database.migrate(schema: "songs", Self.songs))
        _ = await PromiseExpectations.value(of: database.migrate(schema: "albums", Self.albums))
        // Again: nothing left to do.
        _ = await PromiseExpectations.value(of: database.migrate(schema: "albums", Self.albums))

        // Then
        let versions = await PromiseExpectations.value(
            of: database.read { connection in
                try connection.query("SELECT name, version FROM schema_versions ORDER BY name")
                    .map { "\(try $0.string("name")) \(try $0.int("version"))" }
            })
        // The library's own table is a schema like any other.
        #expect(versions == ["albums 2", "cache_stamps 3", "songs 1"])
        let inserted = await PromiseExpectations.value(
            of: database.write { try $0.execute("INSERT INTO albums (name) VALUES (?)", ["Blue"]) })
        #expect(inserted == 1)
    }

    @Test(
        "a step written in Swift runs in its turn between SQL steps; one that throws leaves the file as it was"
    )
    func swiftSteps() async throws {
        // Given: a step that fills the table the step before made, and a schema whose Swift step fails
        let steps = [
            Migration(version: 1, sql: "CREATE TABLE albums (id INTEGER PRIMARY KEY, name TEXT)"),
            Migration(version: 2) { try $0.execute("INSERT INTO albums (name) VALUES (?)", ["Blue"]) },
            Migration(version: 3, sql: "UPDATE albums SET name = name || ' (remastered)'"),
        ]
        let failing = [
            Migration(version: 1, sql: "CREATE TABLE songs (id INTEGER PRIMARY KEY)"),
            Migration(version: 2) { _ in throw DatabaseError(kind: .typeMismatch, message: "no") },
        ]
        let database = try Database.inMemory()

        // When
        _ = await PromiseExpectations.value(of: database.migrate(schema: "albums", steps))
        let error = await PromiseExpectations.error(of: database.migrate(schema: "songs", failing))

        // Then: the Swift step ran after step 1, before step 3; the failed schema left nothing
        let state = await PromiseExpectations.value(
            of: database.read { connection in
                (
                    try connection.query("SELECT name FROM albums") { try $0.string("name") },
                    try connection.schemaVersion("albums"), try connection.schemaVersion("songs"),
                    try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'songs'")
                )
            })
        #expect(state?.0 == ["Blue (remastered)"] && state?.1 == 3)
        #expect(error != nil && state?.2 == nil && state?.3 == .integer(0))
    }

    @Test("a feature schema newer than the code knows is refused")
    func newerFeatureSchemaIsRefused() async throws {
        // Given
        let database = try Database.inMemory()
        _ = await PromiseExpectations.value(of: database.migrate(schema: "albums", Self.albums))

        // When
        let error = await PromiseExpectations.error(of: database.migrate(schema: "albums", [Self.albums[0]]))

        // Then
        #expect((error as? DatabaseError)?.kind == .newerSchema(found: 2, known: 1))
    }

    @Test("a file an earlier version kept at user_version 2 gets only the steps after 2, then one versioning")
    func earlierUserVersionIsAdopted() async throws {
        // Given: steps 1 and 2 applied, the version kept as earlier versions kept it
        let file = folder.appendingPathComponent("earlier.sqlite")
        do {
            let made = try Database(at: file, migrations: [TestSchema.v1, TestSchema.v2])
            _ = await PromiseExpectations.value(
                of: made.read { try $0.executeScript("DELETE FROM schema_versions WHERE name = 'app'") })
        }
        let v3 = Migration(version: 3, sql: "ALTER TABLE songs ADD COLUMN year INTEGER")

        // When
        let database = try Database(at: file, migrations: [TestSchema.v1, TestSchema.v2, v3])

        // Then: step 3 ran once (steps 1 and 2 again would fail: the table and column exist)
        #expect(await PromiseExpectations.value(of: database.schemaVersion) == 3)
        let versions = await PromiseExpectations.value(
            of: database.read { connection in
                (
                    try connection.scalar("SELECT version FROM schema_versions WHERE name = 'app'"),
                    try connection.scalar("PRAGMA user_version")
                )
            })
        #expect(versions?.0 == .integer(3) && versions?.1 == .integer(3))
        let inserted = await PromiseExpectations.value(
            of: database.write {
                try $0.execute("INSERT INTO songs (title, year) VALUES (?, ?)", ["Blue", 1971])
            })
        #expect(inserted == 1)
    }
}
