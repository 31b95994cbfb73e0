import Dispatch
import Foundation
import MelodiesTesting
import OrdersTesting
import Testing

@testable import Promises

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Promises and the fallback service under load: many threads, many requests, a flapping server.
@Suite("Load")
struct LoadTests {
    /// What a handler captures, or an error a promise is rejected with, counted when freed: one
    /// the promise kept after it settled is never freed.
    final class Capture: Error, Sendable {
        let freed: Locked<Int>

        init(_ freed: Locked<Int>) {
            self.freed = freed
        }

        deinit {
            freed.withLock { $0 += 1 }
        }
    }

    @Test(
        "2 threads × a million operations on shared promises: every handler runs exactly once, nothing leaks")
    func promisesUnderContention() async throws {
        // Given
        // CI's ThreadSanitizer run asks for fewer (PROMISE_LOAD_OPERATIONS), so that the rest of the
        // suite, running beside it on two cores, is not starved.
        let operationsPerThread =
            ProcessInfo.processInfo.environment["PROMISE_LOAD_OPERATIONS"].flatMap(Int.init) ?? 1_000_000
        let promisesPerRound = 1_000
        let operationsPerRound = promisesPerRound * 4
        let rounds = operationsPerThread / operationsPerRound
        let delivered = Locked(0)
        let registered = Locked(0)
        let outcomesDisagreed = Locked(0)
        let capturesFreed = Locked(0)
        let errorsFreed = Locked(0)
        let rejections = Locked(0)

        // When: on a thread of its own, not the concurrency pool's two, which the rest of the suite
        // waits on: a minute of this there once held up other tests past their timeouts.
        let allFreed = await BlockingWork.run { () -> Bool in
            var weakStorages: [() -> Bool] = []
            for round in 0..<rounds {
                let pairs = (0..<promisesPerRound).map { _ in Promise<Int>.pending() }
                DispatchQueue.concurrentPerform(iterations: 2) { thread in
                    var registrations = 0
                    for operation in 0..<operationsPerRound {
                        let index = operation % promisesPerRound
                        let (promise, seal) = pairs[index]
                        switch (operation / promisesPerRound + thread) % 4 {
                        case 0:
                            registrations += 1
                            let capture = Capture(capturesFreed)
                            _ = promise.tap(on: .inline) { result in
                                _ = capture
                                delivered.withLock { $0 += 1 }
                                let now = promise.result
                                if now.map({ "\($0)" }) != "\(result)" {
                                    outcomesDisagreed.withLock { $0 += 1 }
                                }
                            }
                        case 1: seal.fulfill(operation)
                        case 2:
                            rejections.withLock { $0 += 1 }
                            seal.reject(Capture(errorsFreed))
                        default: promise.cancel()
                        }
                    }
                    registered.withLock { $0 += registrations }
                }
                if round % 50 == 0, let buffer = pairs[round % promisesPerRound].promise.storage {
                    weak let weakBuffer = buffer
                    weakStorages.append { weakBuffer == nil }
                }
            }
            return weakStorages.allSatisfy { $0() }
        }

        // Then
        #expect(registered.withLock { $0 } == rounds * promisesPerRound * 2)
        #expect(delivered.withLock { $0 } == registered.withLock { $0 })
        #expect(outcomesDisagreed.withLock { $0 } == 0)
        #expect(allFreed, "a settled promise was not freed")
        // What this test made and nothing else: the process's resident size, which the suite's
        // other tests move as they run beside it, once failed a ceiling here for their memory.
        #expect(capturesFreed.withLock { $0 } == registered.withLock { $0 }, "a handler was not freed")
        #expect(errorsFreed.withLock { $0 } == rejections.withLock { $0 }, "an error was not freed")
    }

    @Test(
        "1,000 fetches, twenty at a time, while the server flips up and down: fresh, cached or a documented error, none hangs"
    )
    func fallbackUnderLoad() async throws {
        // Given
        let json = String(decoding: try JSONEncoder().encode(Melody.mocks()), as: UTF8.self)
        let server = try TestHTTPServer(["/melodies": .status(200, body: json)])
        let folder = TemporaryFolder("LoadTests")
        let database = try Database(at: folder.file("cache.sqlite"))
        _ = await PromiseExpectations.value(
            of: MelodyCache(database: database).save(Array(Melody.mocks().prefix(2)), at: Date()))
        let service = LiveMelodyService(
            // A session of its own: a thousand requests queued on the shared one would hold up every
            // other test's requests behind them.
            // Retries as usual, without their waits: the load, not the backoff, is under test.
            api: APIClient(
                baseURL: server.baseURL, timeout: 30, retry: RetryPolicy(baseDelay: 0),
                session: URLSession(configuration: .ephemeral)),
            database: database)
        let flipping = Locked(true)
        let flipper = Thread {
            var up = true
            while flipping.withLock({ $0 }) {
                up.toggle()
                server.set("/melodies", up ? .status(200, body: json) : .reset)
                usleep(2_000)  // the server's pace of flipping, not synchronisation
            }
        }
        flipper.start()

        // When: fifty waves of twenty at once (each wave's identical GETs share one request, so
        // the server sees a request per wave and its retries)
        var outcomes: [Result<Fetched<[Melody]>, any Error>] = []
        for _ in 0..<50 {
            let fetches = (0..<20).map { _ in service.getMelodiesWithSource() }
            let wave = await PromiseExpectations.value(of: when(resolved: fetches).asPromise(), timeout: 120)
            outcomes += try #require(wave)
        }
        flipping.withLock { $0 = false }

        // Then
        #expect(outcomes.count == 1_000)
        var fresh = 0
        var cached = 0
        for outcome in outcomes {
            switch outcome {
            case .success(let fetched) where fetched.source == .network:
                #expect(fetched.value == Melody.mocks())
                fresh += 1
            case .success(let fetched):
                guard case .cache(_, let reason) = fetched.source else { continue }
                #expect([.noNetwork, .timedOut].contains(reason))
                #expect(fetched.value.count == 2 || fetched.value == Melody.mocks())
                cached += 1
            case .failure(let error):
                Issue.record("a fetch failed with \(error)")
            }
        }
        #expect(fresh + cached == 1_000)
        #expect(fresh > 0)
    }
}
