import Foundation
import PromiseMVPTesting
import Testing

@testable import Promises
@testable import Services

/// The fallback rule, row by row, against a real server and a real (in-memory) database.
@Suite("Network fallback")
struct NetworkFallbackTests {
    let server: TestHTTPServer
    let client: APIClient
    let database: Database
    let fallback: NetworkFallback<StringsCache>
    let fetchedAt = Date(timeIntervalSince1970: 1_700_000_000)

    init() throws {
        server = try TestHTTPServer(["/strings": .status(200, body: #"["fresh", "data"]"#)])
        // Generous, so that only the timeout test times out, even on a loaded machine.
        client = APIClient(baseURL: server.baseURL, timeout: 30)
        database = try Database.inMemory()
        let fetchedAt = fetchedAt
        fallback = NetworkFallback(cache: StringsCache(database: database), now: { fetchedAt })
    }

    private func fetch(timeout: Double? = nil) -> Promise<Fetched<[String]>> {
        let client = timeout.map { APIClient(baseURL: server.baseURL, timeout: $0) } ?? client
        return fallback.fetch { client.get("/strings", as: [String].self) }
    }

    /// The suite's fallback on a device that knows it is offline: no request should be sent.
    private func knownOffline() -> NetworkFallback<StringsCache> {
        struct Offline: ConnectivityMonitor { var isReachable: Bool { false } }
        return NetworkFallback(cache: fallback.cache, reachability: Offline())
    }

    private func seedCache(_ value: [String], at date: Date) async {
        _ = await PromiseExpectations.value(of: fallback.cache.save(value, at: date))
    }

    @Test("online: fresh data, from the network, written to the cache")
    func onlineFetchesAndCaches() async {
        // When
        let fetched = await PromiseExpectations.value(of: fetch())

        // Then
        #expect(fetched?.value == ["fresh", "data"])
        #expect(fetched?.source == .network)
        #expect(fetched?.cacheWriteError == nil)
        let cached = await PromiseExpectations.value(of: fallback.cache.load())
        #expect(cached??.value == ["fresh", "data"])
        #expect(cached??.savedAt == fetchedAt)
    }

    @Test("offline with a cache: the cached data, saying since when and why")
    func offlineUsesCache() async {
        // Given
        let savedAt = Date(timeIntervalSince1970: 1_600_000_000)
        await seedCache(["old"], at: savedAt)
        server.stop()

        // When
        let fetched = await PromiseExpectations.value(of: fetch())

        // Then
        #expect(fetched?.value == ["old"])
        #expect(fetched?.source == .cache(savedAt: savedAt, reason: .noNetwork))
    }

    @Test("offline with an empty cache: noData")
    func offlineWithoutCacheIsNoData() async {
        // Given
        server.stop()

        // When
        let error = await PromiseExpectations.error(of: fetch())

        // Then
        #expect(error as? ServiceRequestError == .noData)
    }

    @Test("a timeout counts as offline: the cached data")
    func timeoutUsesCache() async {
        // Given
        await seedCache(["old"], at: fetchedAt)
        server.set("/strings", .never)

        // When
        let fetched = await PromiseExpectations.value(of: fetch(timeout: 1))

        // Then
        #expect(fetched?.source == .cache(savedAt: fetchedAt, reason: .timedOut))
    }

    @Test("a 5xx shows the cached data and says the server is failing")
    func serverErrorUsesCache() async {
        // Given
        await seedCache(["old"], at: fetchedAt)
        server.set("/strings", .status(503, body: "maintenance"))

        // When
        let fetched = await PromiseExpectations.value(of: fetch())

        // Then
        #expect(fetched?.value == ["old"])
        #expect(fetched?.source == .cache(savedAt: fetchedAt, reason: .httpStatus(503)))
    }

    @Test("a 5xx with an empty cache rejects with the status, not noData")
    func serverErrorWithoutCache() async {
        // Given
        server.set("/strings", .status(500, body: "oops"))

        // When
        let error = await PromiseExpectations.error(of: fetch())

        // Then
        #expect(error as? ServiceRequestError == .httpStatus(500))
    }

    @Test("a 4xx rejects with the status and does not hide behind the cache")
    func clientErrorRejects() async {
        // Given
        await seedCache(["old"], at: fetchedAt)
        server.set("/strings", .status(404, body: "{}"))

        // When
        let error = await PromiseExpectations.error(of: fetch())

        // Then
        #expect(error as? ServiceRequestError == .httpStatus(404))
    }

    @Test("a body that does not decode rejects and leaves the cache as it was")
    func malformedKeepsCache() async {
        // Given
        let savedAt = Date(timeIntervalSince1970: 1_600_000_000)
        await seedCache(["old"], at: savedAt)
        server.set("/strings", .status(200, body: #"{"not": "a list"}"#))

        // When
        let error = await PromiseExpectations.error(of: fetch())

        // Then
        guard case .decodingFailed? = error as? ServiceRequestError else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        let cached = await PromiseExpectations.value(of: fallback.cache.load())
        #expect(cached??.value == ["old"])
        #expect(cached??.savedAt == savedAt)
    }

    @Test("known offline: the request is not even sent")
    func unreachableSkipsRequest() async {
        // Given
        await seedCache(["old"], at: fetchedAt)
        let offline = knownOffline()
        let client = client

        // When
        let fetched = await PromiseExpectations.value(
            of: offline.fetch { client.get("/strings", as: [String].self) })

        // Then
        #expect(fetched?.source == .cache(savedAt: fetchedAt, reason: .noNetwork))
        #expect(server.requests.isEmpty)
    }

    @Test("fresh data that cannot be cached is still shown, with the cache error")
    func cacheWriteFailureStillShowsData() async {
        // Given
        let failing = NetworkFallback(cache: FailingWritesCache())
        let client = client

        // When
        let fetched = await PromiseExpectations.value(
            of: failing.fetch { client.get("/strings", as: [String].self) })

        // Then
        #expect(fetched?.value == ["fresh", "data"])
        #expect(fetched?.source == .network)
        #expect(fetched?.cacheWriteError == .storageFailed(reason: "disk full"))
    }

    @Test("cancelling the fetch rejects with a cancellation, which catch skips")
    func cancellingRejectsCancelled() async {
        // Given
        server.set("/strings", .never)
        let fetching = fetch()

        // When
        fetching.cancel()

        // Then
        let error = await PromiseExpectations.error(of: fetching)
        #expect(error?.isCancellation == true)
    }

    @Test("network only, known offline: noNetwork, and the request is not sent")
    func networkOnlyOfflineSendsNothing() async {
        // Given
        await seedCache(["old"], at: fetchedAt)
        let offline = knownOffline()
        let client = client

        // When
        let error = await PromiseExpectations.error(
            of: offline.fetch(policy: .networkOnly) { client.get("/strings", as: [String].self) })

        // Then
        #expect(error.map(ServiceRequestError.init) == .noNetwork)
        #expect(server.requests.isEmpty)
    }

    @Test("cache then network: a refresh that was cancelled rejects as cancelled, not as the copy")
    func cacheThenNetworkCancelled() async {
        // Given: a copy, and a request the test cancels once the copy is shown (as a shared GET
        // is cancelled by another caller, or the session by the system)
        await seedCache(["old"], at: fetchedAt)
        let (request, _) = Promise<[String]>.pending()
        let (shown, show) = Promise<Void>.pending()
        let fetching = fallback.fetch(
            policy: .cacheThenNetwork, showingCopy: { _ in show.fulfill() }, { request })
        _ = await PromiseExpectations.value(of: shown)

        // When
        request.cancel()

        // Then
        let error = await PromiseExpectations.error(of: fetching)
        #expect(error?.isCancellation == true)
    }

    @Test(
        "a 304 to a request that sent no validators, with nothing to keep, is an error at once, not asked again"
    )
    func notModifiedWithoutValidatorsIsRefused() async {
        // Given: no copy, and an API that answers everything "not modified"
        let asked = Locked(0)

        // When
        let error = await PromiseExpectations.error(
            of: fallback.fetch(policy: .networkOnly) { _ -> Promise<ConditionalGet<[String]>> in
                asked.withLock { $0 += 1 }
                return .value(.notModified)
            })

        // Then: a 304 nothing asked for is not the API's answer
        #expect(error.map(ServiceRequestError.init) == .notTheAPI)
        #expect(asked.withLock { $0 } == 1)
    }

    @Test(
        "a copy's age: younger than the limit only below it; from the future only past the clock's tolerance")
    func ageBoundaries() {
        // Given
        let now = Date(timeIntervalSince1970: 1_800_000_000)

        // Then
        #expect(DataSource.isYounger(now.addingTimeInterval(-59), than: 60, now: now))
        #expect(!DataSource.isYounger(now.addingTimeInterval(-60), than: 60, now: now))
        #expect(!DataSource.isFromTheFuture(now.addingTimeInterval(DataSource.clockTolerance), now: now))
        #expect(DataSource.isFromTheFuture(now.addingTimeInterval(DataSource.clockTolerance + 1), now: now))
    }
}
