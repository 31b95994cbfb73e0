import Foundation
import MelodiesTesting
import OrdersTesting
import Testing

/// The HTTP side misbehaving, one fault at a time, against the live melody service and its SQLite
/// cache: each fault gives its documented outcome, and the cache is neither emptied nor
/// overwritten with partial data.
@Suite("HTTP faults")
struct HTTPFaultTests {
    let server: TestHTTPServer
    let database: Database
    let cached = Array(Melody.mocks().prefix(3))
    let fresh = Melody.mocks()
    let savedAt = Date(timeIntervalSince1970: 1_700_000_000)
    let folder = TemporaryFolder("HTTPFaultTests")

    init() throws {
        server = try TestHTTPServer()
        database = try Database(at: folder.file("cache.sqlite"))
    }

    var freshJSON: String {
        String(decoding: (try? JSONEncoder().encode(fresh)) ?? Data(), as: UTF8.self)
    }

    /// The service under test; a generous timeout, so that only the slow-headers test times out, even on
    /// a loaded machine.
    func service(timeout: Double = 30, maximumResponseBytes: Int = 1 << 20) -> LiveMelodyService {
        LiveMelodyService(
            // Retries as usual, without their waits: what each fault ends in is under test.
            api: APIClient(
                baseURL: server.baseURL, timeout: timeout, maximumResponseBytes: maximumResponseBytes,
                retry: RetryPolicy(baseDelay: 0)),
            database: database)
    }

    /// Seeds the cache, serves `reply`, fetches once, and returns the outcome and the cache after it.
    func fetch(
        with reply: TestHTTPServer.Reply, service: LiveMelodyService? = nil
    ) async -> (Result<Fetched<[Melody]>, any Error>, Cached<[Melody]>?) {
        _ = await PromiseExpectations.value(of: MelodyCache(database: database).save(cached, at: savedAt))
        server.set("/melodies", reply)
        let outcome: Result<Fetched<[Melody]>, any Error>
        do {
            outcome = .success(try await (service ?? self.service()).getMelodiesWithSource().value)
        } catch {
            outcome = .failure(error)
        }
        let cache = await PromiseExpectations.value(of: MelodyCache(database: database).load())
        return (outcome, cache ?? nil)
    }

    func expectCacheUntouched(_ cache: Cached<[Melody]>?, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(cache?.value == cached, sourceLocation: sourceLocation)
        #expect(cache?.savedAt == savedAt, sourceLocation: sourceLocation)
    }

    @Test("slow headers: timedOut, answered from the cache")
    func slowHeaders() async throws {
        let (outcome, cache) = await fetch(
            with: .slowHeaders(seconds: 3, then: .status(200, body: freshJSON)), service: service(timeout: 1))
        #expect(try outcome.get().source == .cache(savedAt: savedAt, reason: .timedOut))
        expectCacheUntouched(cache)
    }

    @Test("a body that stops halfway: a lost connection, answered from the cache")
    func bodyStopsHalfway() async throws {
        let (outcome, cache) = await fetch(with: .closeMidBody)
        #expect(try outcome.get().source == .cache(savedAt: savedAt, reason: .noNetwork))
        expectCacheUntouched(cache)
    }

    @Test("a reset connection: noNetwork, answered from the cache")
    func resetConnection() async throws {
        let (outcome, cache) = await fetch(with: .reset)
        #expect(try outcome.get().source == .cache(savedAt: savedAt, reason: .noNetwork))
        expectCacheUntouched(cache)
    }

    @Test("a wrong Content-Type on a body that decodes: accepted, the body decides")
    func wrongContentType() async throws {
        let (outcome, cache) = await fetch(with: .status(200, body: freshJSON, contentType: "text/plain"))
        #expect(try outcome.get().source == .network)
        #expect(cache?.value == fresh)
    }

    @Test(
        "a 200 with a sign-in page, as HTML or as text: not the API's answer, so the copy is shown, untouched",
        arguments: ["text/html", "text/plain"])
    func signInPage(contentType: String) async throws {
        let (outcome, cache) = await fetch(
            with: .status(
                200, body: "<html><body>Sign in to the Wi-Fi</body></html>", contentType: contentType))
        #expect(try outcome.get().source == .cache(savedAt: savedAt, reason: .notTheAPI))
        expectCacheUntouched(cache)
    }

    @Test("a read redirected to another origin (a captive portal's 302): the copy is shown, untouched")
    func readRedirectedElsewhere() async throws {
        let portal = try TestHTTPServer(responder: { _ in
            .status(200, body: "<html>Sign in</html>", contentType: "text/html")
        })
        defer { portal.stop() }
        let (outcome, cache) = await fetch(with: .redirect(to: portal.baseURL.absoluteString + "login"))
        #expect(try outcome.get().source == .cache(savedAt: savedAt, reason: .notTheAPI))
        #expect(portal.requests.isEmpty)
        expectCacheUntouched(cache)
    }

    @Test("a read redirected within the API's origin is followed")
    func readRedirectedWithinTheAPI() async throws {
        server.set("/v2/melodies", .status(200, body: freshJSON))
        let (outcome, cache) = await fetch(with: .redirect(to: "/v2/melodies"))
        #expect(try outcome.get().source == .network)
        #expect(cache?.value == fresh)
    }

    @Test("a huge body: refused before decoding, cache untouched")
    func hugeBody() async throws {
        let huge =
            "["
            + String(
                repeating: #"{"id": 1, "title": "x", "artist": "y", "album": "z", "duration": 1},"#,
                count: 40_000) + "]"
        let (outcome, cache) = await fetch(with: .status(200, body: huge))
        guard case .failure(ServiceRequestError.decodingFailed(let type, let reason)) = outcome else {
            Issue.record("expected decodingFailed, got \(outcome)")
            return
        }
        #expect(type == "response")
        #expect(reason.contains("more than the 1048576 accepted"))
        expectCacheUntouched(cache)
    }

    @Test(
        "the limit is exact: a body of the limit's size is read, one byte more is refused, announced or not",
        arguments: [false, true])
    func limitIsExact(announced: Bool) async throws {
        // Given: a limit of 64 KiB, and bodies that say their length, or end when the connection closes
        let limit = 64 << 10
        let client = APIClient(
            baseURL: server.baseURL, timeout: 30, maximumResponseBytes: limit, retry: .never)
        server.set("/at", .largeBody(bytes: limit, announced: announced))
        server.set("/over", .largeBody(bytes: limit + 1, announced: announced))

        // When: both bodies are JSON spaces, which no decoder takes: what matters is which error
        let atTheLimit = await PromiseExpectations.error(of: client.get("at", as: [Int].self), timeout: 30)
        let overTheLimit = await PromiseExpectations.error(
            of: client.get("over", as: [Int].self), timeout: 30)

        // Then
        guard case .decoding? = atTheLimit as? APIError else {
            Issue.record("the body at the limit was not read: \(String(describing: atTheLimit))")
            return
        }
        guard case .responseTooLarge(_, let refusedAt)? = overTheLimit as? APIError else {
            Issue.record("one byte over the limit was not refused: \(String(describing: overTheLimit))")
            return
        }
        #expect(refusedAt == limit)
    }

    @Test(
        "a 50 MB body is refused as it arrives, near the limit, announced or not",
        arguments: [true, false])
    func endlessBodyStoppedAtTheLimit(announced: Bool) async throws {
        // Given
        let client = APIClient(
            baseURL: server.baseURL, timeout: 30, maximumResponseBytes: 1 << 20, retry: .never)
        server.set("/large", .largeBody(bytes: 50_000_000, announced: announced))

        // When
        let error = await PromiseExpectations.error(of: client.get("large", as: [Int].self), timeout: 30)

        // Then: an announced body is not started; another is stopped within a chunk of the limit
        guard case .responseTooLarge(let bytes, let limit)? = error as? APIError else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 1 << 20)
        #expect(announced ? bytes == 50_000_000 : (bytes > limit && bytes < 2 << 20), "\(bytes)")
    }

    @Test("a redirect loop: unknownError, cache untouched")
    func redirectLoop() async throws {
        // The loop's own error, however long its hops take: under ThreadSanitizer on two loaded
        // cores they once took over 10 s, and the timeout's fallback to the cache answered.
        let (outcome, cache) = await fetch(with: .redirect(to: "/melodies"), service: service(timeout: 900))
        guard case .failure(let error) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(error as? ServiceRequestError == .unknownError)
        expectCacheUntouched(cache)
    }

    @Test("a 503 with a short Retry-After is retried once, and the retry's data is used")
    func serviceUnavailableRetried() async throws {
        // A timeout only a hang reaches: the second of waiting and the retry must fit in it however
        // slow the run (ThreadSanitizer), or the fallback to the cache would answer instead.
        let (outcome, cache) = await fetch(
            with: .sequence([
                .status(503, body: "busy", headers: ["Retry-After": "1"]), .status(200, body: freshJSON),
            ]), service: service(timeout: 900))
        #expect(try outcome.get().source == .network)
        #expect(cache?.value == fresh)
    }

    @Test("a 429 with a short Retry-After is retried once too")
    func tooManyRequestsRetried() async throws {
        let (outcome, _) = await fetch(
            with: .sequence([
                .status(429, body: "slow down", headers: ["Retry-After": "0.2"]),
                .status(200, body: freshJSON),
            ]), service: service(timeout: 900))
        #expect(try outcome.get().value == fresh)
    }

    @Test("a 503 with a long Retry-After is not waited for: the cache answers, saying why")
    func serviceUnavailableLongWait() async throws {
        let (outcome, cache) = await fetch(with: .status(503, body: "later", headers: ["Retry-After": "120"]))
        #expect(try outcome.get().source == .cache(savedAt: savedAt, reason: .httpStatus(503)))
        expectCacheUntouched(cache)
    }

    @Test("a 429 that keeps refusing (come back later): the cache answers, saying why, and is left untouched")
    func tooManyRequestsAgain() async throws {
        let (outcome, cache) = await fetch(with: .status(429, body: "no", headers: ["Retry-After": "0"]))
        #expect(try outcome.get().source == .cache(savedAt: savedAt, reason: .httpStatus(429)))
        expectCacheUntouched(cache)
    }
}
