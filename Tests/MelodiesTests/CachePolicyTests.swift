import Foundation
import Melodies
import MelodiesTesting
import Testing

/// Each read policy against the real loopback server and a real SQLite file: what the caller gets,
/// from where, and how many requests the server saw.
@Suite("Cache policies")
struct CachePolicyTests {
    let folder = TemporaryFolder("CachePolicyTests")
    let cached = Array(Melody.mocks().prefix(2))
    let fresh = Melody.mocks()
    let server: TestHTTPServer

    init() throws {
        let json = String(decoding: try JSONEncoder().encode(Melody.mocks()), as: UTF8.self)
        server = try TestHTTPServer(["/melodies": .status(200, body: json)])
    }

    /// The live service on this suite's file, with `cached` saved `age` seconds ago.
    func service(copyAge age: Double? = 0, busyTimeout: Double = 5) async throws -> (
        LiveMelodyService, Database
    ) {
        let database = try Database(at: folder.file("melodies.sqlite"), busyTimeout: busyTimeout)
        if let age {
            _ = await PromiseExpectations.value(
                of: MelodyCache(database: database).save(cached, at: Date().addingTimeInterval(-age)))
        }
        return (
            // Not retried: every policy's test counts the requests it made (retries have their own).
            LiveMelodyService(
                api: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never), database: database),
            database
        )
    }

    @Test("cache first: a young copy without a request; an old one, fresh from the API")
    func cacheFirst() async throws {
        // Given
        let (young, _) = try await service(copyAge: 10)

        // When
        let fromCopy = await PromiseExpectations.value(
            of: young.getMelodies(policy: .cacheFirst(maxAge: 3_600)) { _ in })
        let fromAPI = await PromiseExpectations.value(
            of: young.getMelodies(policy: .cacheFirst(maxAge: 5)) { _ in })

        // Then
        #expect(fromCopy?.value == cached)
        #expect(fromCopy?.source.savedAt != nil && fromCopy?.source != .network)
        #expect(fromAPI?.value == fresh)
        #expect(fromAPI?.source == .network)
        #expect(server.requests.count == 1)
    }

    @Test(
        "cache first: a copy dated in the future (a clock set back) is expired whatever the maximum age, and says so",
        arguments: [0.0, 60, 31_536_000] as [Double])
    func copyFromTheFuture(maxAge: Double) async throws {
        // Given: a copy stamped an hour from now
        let (service, _) = try await service(copyAge: -3_600)
        server.set("/melodies", .status(500, body: "{}"))

        // When: the API is asked, and fails, so the copy is what is left to show
        let fetched = await PromiseExpectations.value(
            of: service.getMelodies(policy: .cacheFirst(maxAge: maxAge)) { _ in })

        // Then
        #expect(server.requests.count == 1)
        #expect(fetched?.value == cached)
        let notice = pinnedFormatter.notice(for: try #require(fetched)) ?? ""
        #expect(notice.contains("saved at a time in the future ("), "\(notice)")
    }

    @Test("cache then network: the copy at once, then the fresh list; the promise settles with the fresh one")
    func cacheThenNetwork() async throws {
        // Given
        let (service, _) = try await service()
        let shown = ShownCounts()

        // When
        let final = await PromiseExpectations.value(
            of: service.getMelodies(policy: .cacheThenNetwork) { copy in shown.append(copy.value.count) })

        // Then
        #expect(shown.all == [cached.count])
        #expect(final?.value == fresh)
        #expect(final?.source == .network)
        #expect(server.requests.count == 1)
    }

    @Test("cache then network with the server failing: the copy, then the copy again with the reason")
    func cacheThenNetworkFailing() async throws {
        // Given
        server.set("/melodies", .status(503, body: "{}"))
        let (service, _) = try await service()

        // When
        let final = await PromiseExpectations.value(
            of: service.getMelodies(policy: .cacheThenNetwork) { _ in })

        // Then
        #expect(final?.value == cached)
        if case .cache(_, let reason)? = final?.source {
            #expect(reason == .httpStatus(503))
        } else {
            Issue.record("expected the copy with the reason, got \(String(describing: final?.source))")
        }
    }

    @Test("network only: the API's error even with a copy; cache only: the copy without a request, or noData")
    func networkOnlyAndCacheOnly() async throws {
        // Given
        server.set("/melodies", .status(503, body: "{}"))
        let (service, database) = try await service()

        // When
        let networkOnly = await PromiseExpectations.error(
            of: service.getMelodies(policy: .networkOnly) { _ in })
        let cacheOnly = await PromiseExpectations.value(of: service.getMelodies(policy: .cacheOnly) { _ in })
        let empty = LiveMelodyService(
            api: APIClient(baseURL: server.baseURL), database: try Database(at: folder.file("empty.sqlite")))
        let nothing = await PromiseExpectations.error(of: empty.getMelodies(policy: .cacheOnly) { _ in })

        // Then
        #expect(networkOnly as? ServiceRequestError == .httpStatus(503))
        #expect(cacheOnly?.value == cached)
        #expect(nothing as? ServiceRequestError == .noData)
        #expect(server.requests.count == 1)
        _ = database
    }

    @Test("fresh melodies that cannot be saved (repeated ids) say so, and the copy is left as it was")
    func duplicateIdsAreNotSavedAndSaySo() async throws {
        // Given
        let duplicated = fresh + [fresh[0]]
        server.set(
            "/melodies",
            .status(200, body: String(decoding: try JSONEncoder().encode(duplicated), as: UTF8.self)))
        let (service, _) = try await service()

        // When
        let fetched = await PromiseExpectations.value(of: service.getMelodies(policy: .networkFirst) { _ in })
        let copy = await PromiseExpectations.value(of: service.getMelodies(policy: .cacheOnly) { _ in })

        // Then
        #expect(fetched?.cacheWriteError != nil)
        #expect(copy?.value == cached)
        let notice = pinnedFormatter.notice(for: try #require(fetched))
        #expect(
            notice?.hasPrefix("Fresh, but they could not be saved for offline use:") == true,
            "\(notice ?? "")")
    }

    @Test(
        "fresh melodies that cannot be saved (the write lock held by another connection) say so, naming the lock"
    )
    func heldWriteLockSaysSo() async throws {
        // Given: another connection holding the file's write lock
        let (service, _) = try await service(copyAge: 0, busyTimeout: 0.2)
        let other = try Database(at: folder.file("melodies.sqlite"))
        let (holding, holdingSeal) = Promise<Void>.pending()
        let release = DispatchSemaphore(value: 0)
        let held = other.write { _ in
            holdingSeal.fulfill()
            release.wait()  // on the database's own queue, not in async code
        }
        _ = await PromiseExpectations.value(of: holding)

        // When
        let fetched = await PromiseExpectations.value(of: service.getMelodies(policy: .networkFirst) { _ in })
        release.signal()
        _ = await PromiseExpectations.value(of: held)

        // Then
        #expect(fetched?.value == fresh)
        let notice = pinnedFormatter.notice(for: try #require(fetched))
        #expect(
            notice
                == "Fresh, but they could not be saved for offline use: "
                + "\(folder.file("melodies.sqlite").path): the database is locked by another program")
    }
}
