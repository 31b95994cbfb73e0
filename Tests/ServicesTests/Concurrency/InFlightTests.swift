import Dispatch
import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `InFlight` as the API client uses it: identical GETs in flight share one request; each caller
/// may stop waiting on its own. (The outbox's one sync at a time is tested in `OutboxTests`.)
///
/// No clock may race the test's next step: between a request reaching the server and the test
/// resuming to answer or cancel it, the test waits its turn on the concurrency pool behind every
/// other suite's queued work, which took over 60 s on a loaded two-core machine (a client timeout of
/// 60 s once failed three of these tests at once). So every timeout here is ``patience``, far
/// beyond any wait the test means, and only a hang reaches it.
@Suite("InFlight: shared GETs")
struct InFlightTests {
    /// How long any wait of these tests may take before it counts as a hang, in seconds.
    static let patience = 900.0

    /// A client whose timeout is ``patience`` (its session's too: the client gives it its own).
    static func client(_ server: TestHTTPServer) -> APIClient {
        APIClient(baseURL: server.baseURL, timeout: patience, retry: .never)
    }

    /// A server that holds every request until the test lets it answer, so that the test knows
    /// every caller asked while the first request was in flight.
    final class HeldServer: Sendable {
        /// Counts the requests from the server's threads.
        final class Counter: @unchecked Sendable {
            // `@unchecked Sendable` is sound: `count` is only touched while `lock` is held.
            private let lock = NSLock()
            private var count = 0

            func increment() -> Int {
                lock.withLock {
                    count += 1
                    return count
                }
            }
        }

        let server: TestHTTPServer
        private let arrived = DispatchSemaphore(value: 0)
        private let release = DispatchSemaphore(value: 0)

        /// Starts the server.
        ///
        /// - Parameters:
        ///   - answer: What every request gets once let go.
        ///   - firstNeverAnswered: Whether the first request is held until the client closes it.
        /// - Throws: When no socket can be opened.
        init(answer: String, firstNeverAnswered: Bool = false) throws {
            let (arrived, release) = (arrived, release)
            let count = Counter()
            server = try TestHTTPServer(responder: { _ in
                let number = count.increment()
                arrived.signal()
                if firstNeverAnswered && number == 1 { return .never }
                _ = release.wait(timeout: .now() + InFlightTests.patience)
                return .status(200, body: answer)
            })
        }

        /// Waits until a request reached the server.
        func waitForRequest() async -> Bool {
            let arrived = arrived
            return await BlockingWork.run {
                arrived.wait(timeout: .now() + InFlightTests.patience) == .success
            }
        }

        /// Lets every held request answer.
        func answer(count: Int = 1) {
            for _ in 0..<count { release.signal() }
        }

        deinit {
            server.stop()
        }
    }

    @Test("100 identical GETs at once make one request, and all get its answer")
    func identicalGetsShareOneRequest() async throws {
        // Given
        let held = try HeldServer(answer: "[1, 2]")
        let client = Self.client(held.server)
        let answers = (0..<100).map { _ in client.get("melodies", as: [Int].self) }
        #expect(await held.waitForRequest())

        // When
        held.answer()
        let all = await PromiseExpectations.value(of: when(fulfilled: answers), timeout: Self.patience)

        // Then
        #expect(all?.count == 100)
        #expect(all?.allSatisfy { $0 == [1, 2] } == true)
        #expect(held.server.requests.count == 1)
    }

    @Test("GETs that differ in path or header fields, and writes, are requests of their own")
    func differentRequestsAreNotShared() async throws {
        // Given
        let held = try HeldServer(answer: "[3]")
        let client = Self.client(held.server)

        // When
        let asked = [
            client.get("melodies", as: [Int].self),
            client.get("orders", as: [Int].self),
            client.send(.get, "melodies", body: nil, headers: ["Accept-Language": "fr"])
                .map(on: .inline) { _ in [0] },
            client.post("melodies", body: [3], as: [Int].self),
            client.post("melodies", body: [3], as: [Int].self),
        ]
        for _ in asked {
            #expect(await held.waitForRequest())
        }
        held.answer(count: asked.count)
        _ = await when(resolved: asked).value

        // Then
        #expect(held.server.requests.count == 5)
    }

    @Test("a caller that cancels stops waiting; the others still get the answer")
    func oneCancelLeavesTheOthers() async throws {
        // Given
        let held = try HeldServer(answer: "[3]")
        let client = Self.client(held.server)
        let leaving = client.get("melodies", as: [Int].self)
        let staying = client.get("melodies", as: [Int].self)
        #expect(await held.waitForRequest())

        // When
        leaving.cancel()
        held.answer()

        // Then
        #expect(await PromiseExpectations.value(of: staying, timeout: Self.patience) == [3])
        #expect(leaving.isCancelled)
        #expect(held.server.requests.count == 1)
    }

    @Test("when every caller cancels, the connection is closed, and the next GET is sent anew")
    func allCancelClosesTheConnection() async throws {
        // Given
        let held = try HeldServer(answer: "[5]", firstNeverAnswered: true)
        let client = Self.client(held.server)
        let first = client.get("melodies", as: [Int].self)
        let second = client.get("melodies", as: [Int].self)
        #expect(await held.waitForRequest())

        // When
        first.cancel()
        second.cancel()

        // Then
        #expect(await held.server.waitForClientToClose(seconds: Self.patience))
        #expect(first.isCancelled && second.isCancelled)
        held.answer()
        #expect(
            await PromiseExpectations.value(
                of: client.get("melodies", as: [Int].self), timeout: Self.patience) == [5])
        #expect(held.server.requests.count == 2)
    }

    @Test("a GET asked after the shared one settled is a request of its own")
    func settledRequestIsForgotten() async throws {
        // Given
        let server = try TestHTTPServer([
            "/melodies": .sequence([.status(200, body: "[1]"), .status(200, body: "[2]")])
        ])
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, retry: .never)
        let first = await PromiseExpectations.value(
            of: client.get("melodies", as: [Int].self), timeout: Self.patience)

        // When
        let second = await PromiseExpectations.value(
            of: client.get("melodies", as: [Int].self), timeout: Self.patience)

        // Then
        #expect(first == [1])
        #expect(second == [2])
        #expect(server.requests.count == 2)
    }

    @Test("two identical DELETEs at once are two requests: writes are never shared")
    func writesAreNotShared() async throws {
        // Given
        let held = try HeldServer(answer: "{}")
        let client = Self.client(held.server)

        // When
        let first = client.delete("melodies/1")
        let second = client.delete("melodies/1")
        #expect(await held.waitForRequest())
        #expect(await held.waitForRequest())
        held.answer(count: 2)
        _ = await when(resolved: [first, second]).value

        // Then
        #expect(held.server.requests.count == 2)
    }
}
