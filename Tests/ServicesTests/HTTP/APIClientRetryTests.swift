import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// GETs that failed in a way that may pass on their own are sent again, after waits that grow
/// and stay under a cap, on a clock the tests replace; writes are sent once.
@Suite("APIClient retries")
struct APIClientRetryTests {
    /// The waits the client asked for, in order; each returns at once.
    let waits = Recorder()

    /// A policy that waits on no real clock and always picks the longest wait.
    func policy(retries: Int = 2, base: Double = 0.5, cap: Double = 4) -> RetryPolicy {
        let waits = waits
        return RetryPolicy(
            maximumRetries: retries, baseDelay: base, maximumDelay: cap, jitter: { $0 },
            wait: { seconds in
                waits.append(seconds)
                return Guarantee.value(())
            })
    }

    /// The requests for `/songs` the server saw. (A port closed by one test may be bound by the
    /// next test's server while a late request of the first is on its way: counting one path keeps
    /// such a stray out.)
    func songRequests(_ server: TestHTTPServer) -> Int {
        server.requests.filter { $0.hasPrefix("GET /songs ") || $0.hasPrefix("POST /orders ") }.count
    }

    @Test("a GET answered 503, 503, then 200 gives the data after exactly 3 requests")
    func failsTwiceThenAnswers() async throws {
        // Given
        let server = try TestHTTPServer([
            "/songs": .sequence([
                .status(503, body: "busy"), .status(503, body: "busy"), .status(200, body: "[1]"),
            ])
        ])
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, retry: policy())

        // When
        let songs = await PromiseExpectations.value(of: client.get("songs", as: [Int].self))

        // Then
        #expect(songs == [1])
        #expect(songRequests(server) == 3)
        #expect(waits.all == [0.5, 1.0])
    }

    @Test(
        "each transient failure is retried as often as allowed, then reported",
        arguments: [502, 503, 504])
    func transientStatusesAreRetried(status: Int) async throws {
        // Given
        let server = try TestHTTPServer(["/songs": .status(status, body: "gateway")])
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, retry: policy(retries: 3))

        // When
        let error = await PromiseExpectations.error(of: client.get("songs", as: [Int].self))

        // Then
        #expect(ServiceRequestError(error ?? APIError.notHTTP) == .httpStatus(status))
        #expect(songRequests(server) == 4)
    }

    @Test("a status that will not pass on its own is not retried", arguments: [400, 404, 422, 500])
    func lastingStatusesAreNot(status: Int) async throws {
        // Given
        let server = try TestHTTPServer(["/songs": .status(status, body: "no")])
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, retry: policy())

        // When
        _ = await PromiseExpectations.error(of: client.get("songs", as: [Int].self))

        // Then
        #expect(songRequests(server) == 1)
        #expect(waits.all.isEmpty)
    }

    @Test("a GET that cannot connect is tried again, as often as the policy says")
    func cannotConnectIsRetried() async throws {
        // Given
        let down = try ClosedPort()
        defer { withExtendedLifetime(down) {} }
        let client = APIClient(baseURL: down.baseURL, retry: policy(retries: 2))

        // When
        let error = await PromiseExpectations.error(of: client.get("nowhere", as: [Int].self))

        // Then
        #expect(ServiceRequestError(error ?? APIError.notHTTP) == .noNetwork)
        #expect(waits.all.count == 2)
    }

    @Test("the waits double from the base and stop growing at the cap")
    func waitsGrowUnderTheCap() async throws {
        // Given
        let server = try TestHTTPServer(["/songs": .status(503, body: "busy")])
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, retry: policy(retries: 5, base: 1, cap: 4))

        // When
        _ = await PromiseExpectations.error(of: client.get("songs", as: [Int].self))

        // Then
        #expect(waits.all == [1, 2, 4, 4, 4])
        #expect(songRequests(server) == 6)
    }

    @Test("full jitter: a wait is the random pick, kept between 0 and the ceiling")
    func jitterStaysInRange() {
        // Given
        let picks: [(picked: Double, expected: Double)] = [(0.3, 0.3), (-1, 0), (9, 2), (.nan, 2)]

        for (picked, expected) in picks {
            // When
            let policy = RetryPolicy(baseDelay: 1, maximumDelay: 4, jitter: { _ in picked })

            // Then
            #expect(policy.delay(beforeRetry: 1) == expected, "picked \(picked)")
        }
        #expect(RetryPolicy().ceiling(beforeRetry: 0) == 0.5)
        #expect(RetryPolicy().ceiling(beforeRetry: 1_000) == 4)
        let random = RetryPolicy(baseDelay: 1, maximumDelay: 4)
        #expect((0..<100).allSatisfy { _ in (0...2).contains(random.delay(beforeRetry: 1)) })
    }

    @Test("a POST answered 503 is sent once: whether it arrived is not known")
    func postIsSentOnce() async throws {
        // Given
        let server = try TestHTTPServer(["/orders": .status(503, body: "busy")])
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, retry: policy())

        // When
        let error = await PromiseExpectations.error(
            of: client.post("orders", body: [1], as: [Int].self))

        // Then
        #expect(ServiceRequestError(error ?? APIError.notHTTP) == .httpStatus(503))
        #expect(songRequests(server) == 1)
        #expect(waits.all.isEmpty)
    }

    @Test(
        "a write refused with a Retry-After of at most the client's longest is sent once more, after that wait",
        arguments: [429, 503])
    func writeWaitsOnceAsAsked(status: Int) async throws {
        // Given: an API that refuses every time, asking for 2 s, and a client that honours up to 2 s
        let server = try TestHTTPServer([
            "/orders": .status(status, body: "busy", headers: ["Retry-After": "2"])
        ])
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, maximumRetryAfter: 2, retry: policy(retries: 3))

        // When
        let error = await PromiseExpectations.error(of: client.post("orders", body: [1], as: [Int].self))

        // Then: sent twice, the wait asked between; the second refusal is the answer
        #expect(ServiceRequestError(error ?? APIError.notHTTP) == .httpStatus(status))
        #expect(songRequests(server) == 2)
        #expect(waits.all == [2])
    }

    @Test(
        "a GET refused with a Retry-After is asked again as often as the policy says, each after the wait asked"
    )
    func readWaitsAsAsked() async throws {
        // Given
        let server = try TestHTTPServer([
            "/songs": .status(503, body: "busy", headers: ["Retry-After": "1"])
        ])
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, maximumRetryAfter: 2, retry: policy(retries: 3))

        // When
        let error = await PromiseExpectations.error(of: client.get("songs", as: [Int].self))

        // Then
        #expect(ServiceRequestError(error ?? APIError.notHTTP) == .httpStatus(503))
        #expect(songRequests(server) == 4)
        #expect(waits.all == [1, 1, 1])
    }

    @Test("retries stay within the client's overall timeout")
    func retriesStayWithinTheTimeout() async throws {
        // Given: a wait that never ends, so only the overall timeout can end the GET
        let server = try TestHTTPServer(["/songs": .status(503, body: "busy")])
        defer { server.stop() }
        let endless = RetryPolicy(wait: { _ in Guarantee<Void>.pending().guarantee })
        let client = APIClient(baseURL: server.baseURL, timeout: 0.5, retry: endless)

        // When
        let error = await PromiseExpectations.error(of: client.get("songs", as: [Int].self))

        // Then
        #expect(ServiceRequestError(error ?? APIError.notHTTP) == .timedOut)
        #expect(songRequests(server) == 1)
    }

    @Test("the default policy: two retries, 0.5 s base, 4 s cap")
    func defaults() {
        let standard = RetryPolicy.standard
        #expect(standard.maximumRetries == 2)
        #expect(standard.baseDelay == 0.5)
        #expect(standard.maximumDelay == 4)
        #expect(APIClient(baseURL: URL(fileURLWithPath: "/")).retry.maximumRetries == 2)
        #expect(RetryPolicy.never.maximumRetries == 0)
    }

    /// Records the waits from any thread.
    final class Recorder: @unchecked Sendable {
        // `@unchecked Sendable` is sound: `recorded` is only touched while `lock` is held.
        private let lock = NSLock()
        private var recorded: [Double] = []

        func append(_ seconds: Double) {
            lock.withLock { recorded.append(seconds) }
        }

        var all: [Double] {
            lock.withLock { recorded }
        }
    }
}
