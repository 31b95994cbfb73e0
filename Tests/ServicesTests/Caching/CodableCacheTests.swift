import Foundation
import PromiseMVPTesting
import Testing

@testable import Services

/// The ready offline cache for any `Codable` value, and a feature's own tables, on a real file.
@Suite("Codable cache and feature tables")
struct CodableCacheTests {
    struct Recipe: Codable, Equatable, Sendable {
        let name: String
        let minutes: Int
    }

    let folder = TemporaryFolder("CodableCacheTests")

    @Test("a saved value comes back with its time; nothing saved yet is nil; names are kept apart")
    func savesAndLoads() async throws {
        // Given
        let database = try Database(at: folder.file("app.sqlite"))
        let recipes = CodableCache<[Recipe]>(database: database, name: "recipes")
        let favourites = CodableCache<[Recipe]>(database: database, name: "favourites")
        let savedAt = Date(timeIntervalSince1970: 1_800_000_000)
        let soup = [Recipe(name: "Soup", minutes: 30)]

        // When
        let empty = await PromiseExpectations.value(of: recipes.load())
        _ = await PromiseExpectations.value(of: recipes.save(soup, at: savedAt))
        _ = await PromiseExpectations.value(of: recipes.save(soup + soup, at: savedAt.addingTimeInterval(60)))
        let loaded = await PromiseExpectations.value(of: recipes.load())
        let other = await PromiseExpectations.value(of: favourites.load())

        // Then
        #expect(empty != nil && empty?.map(\.value) == nil)
        #expect(loaded??.value == soup + soup)
        #expect(loaded??.savedAt == savedAt.addingTimeInterval(60))
        #expect(other != nil && other?.map(\.value) == nil)
    }

    @Test(
        "confirming a saved value dates it and its stamp anew and keeps its validators; nothing saved is nil")
    func confirmDatesAnew() async throws {
        // Given: nothing saved yet
        let database = try Database(at: folder.file("app.sqlite"))
        let recipes = CodableCache<[Recipe]>(database: database, name: "recipes")
        let savedAt = Date(timeIntervalSince1970: 1_800_000_000)
        let confirmedAt = savedAt.addingTimeInterval(3_600)
        let soup = [Recipe(name: "Soup", minutes: 30)]
        let validators = CacheValidators(etag: #""v1""#)
        let nothing = await PromiseExpectations.value(of: recipes.confirm(at: confirmedAt))

        // When: saved with validators, then confirmed an hour later
        _ = await PromiseExpectations.value(of: recipes.save(soup, at: savedAt, validators: validators))
        let confirmed = await PromiseExpectations.value(of: recipes.confirm(at: confirmedAt))
        let loaded = await PromiseExpectations.value(of: recipes.load())
        let kept = await PromiseExpectations.value(of: recipes.validators())
        let stamp = await PromiseExpectations.value(
            of: database.read { try $0.cacheStamp("offline_values:recipes") })

        // Then
        #expect(nothing.map { $0 == nil } == true)
        #expect(confirmed??.value == soup && confirmed??.savedAt == confirmedAt)
        #expect(loaded??.savedAt == confirmedAt)
        #expect(kept == validators)
        #expect(stamp == confirmedAt)
    }

    @Test("a stamp set only if absent dates a cache never dated, and leaves one dated as it was")
    func stampIfAbsent() async throws {
        // Given: one cache dated, one not
        let database = try Database(at: folder.file("app.sqlite"))
        let dated = Date(timeIntervalSince1970: 1_800_000_000)
        let later = dated.addingTimeInterval(60)

        // When
        let stamps = await PromiseExpectations.value(
            of: database.write { connection -> [Date?] in
                try connection.setCacheStamp("listed", to: dated)
                try connection.setCacheStampIfAbsent("listed", to: later)
                try connection.setCacheStampIfAbsent("never listed", to: later)
                return [try connection.cacheStamp("listed"), try connection.cacheStamp("never listed")]
            })

        // Then
        #expect(stamps == [dated, later])
    }

    @Test("the copy survives reopening the file, and works behind NetworkFallback offline")
    func survivesReopening() async throws {
        // Given
        let file = folder.file("app.sqlite")
        let soup = [Recipe(name: "Soup", minutes: 30)]
        do {
            let cache = CodableCache<[Recipe]>(database: try Database(at: file), name: "recipes")
            _ = await PromiseExpectations.value(of: cache.save(soup, at: Date()))
        }
        let fallback = NetworkFallback(
            cache: CodableCache<[Recipe]>(database: try Database(at: file), name: "recipes"))

        // When
        let fetched = await PromiseExpectations.value(
            of: fallback.fetch { Promise<[Recipe]>(error: URLError(.notConnectedToInternet)) })

        // Then
        #expect(fetched?.value == soup)
        #expect(fetched?.source.savedAt != nil)
    }

    @Test("a saved value that no longer decodes is an error, not a crash")
    func undecodableCopy() async throws {
        // Given
        let database = try Database(at: folder.file("app.sqlite"))
        _ = await PromiseExpectations.value(
            of: CodableCache<[String]>(database: database, name: "recipes").save(["not a recipe"], at: Date())
        )

        // When
        let error = await PromiseExpectations.error(
            of: CodableCache<[Recipe]>(database: database, name: "recipes").load())

        // Then
        #expect(error is APIError)
    }

    @Test("work issued through a feature's tables runs after their migration, without waiting by hand")
    func featureWorkWaitsForItsTables() async throws {
        // Given
        let database = try Database(at: folder.file("app.sqlite"))
        let tables = FeatureDatabase(
            database, schema: "notes",
            migrations: [Migration(version: 1, sql: "CREATE TABLE notes (text TEXT NOT NULL)")])

        // When: issued at once, before the migration could have run
        let written = tables.write { try $0.execute("INSERT INTO notes (text) VALUES (?)", ["hello"]) }
        let read = tables.read { try $0.query("SELECT text FROM notes").map { try $0.string("text") } }

        // Then
        #expect(await PromiseExpectations.value(of: written) != nil)
        #expect(await PromiseExpectations.value(of: read) == ["hello"])
    }

    @Test("a feature whose migration fails gets the migration's error for its work")
    func failedMigrationIsTheError() async throws {
        // Given
        let database = try Database(at: folder.file("app.sqlite"))
        let broken = FeatureDatabase(
            database, schema: "broken", migrations: [Migration(version: 1, sql: "CREATE TABLE (")])

        // When
        let error = await PromiseExpectations.error(of: broken.read { _ in 1 })

        // Then
        #expect((error as? DatabaseError)?.sql?.contains("CREATE TABLE (") == true)
    }
}
