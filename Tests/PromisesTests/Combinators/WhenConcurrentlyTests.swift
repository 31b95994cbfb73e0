import Dispatch
import Testing

@testable import Promises

/// `when(fulfilled:concurrently:)`: at most `limit` promises pending at once, values in order, the
/// first error ends it.
@Suite("when(fulfilled:concurrently:)")
struct WhenConcurrentlyTests {
    /// Makes promises on demand, each fulfilled on a queue of its own later, and records how many
    /// were pending at most.
    final class Source: Sendable {
        let made = Counter()
        let pending = Locked(0)
        let mostPending = Locked(0)
        let count: Int
        let failAt: Int?

        init(count: Int, failAt: Int? = nil) {
            self.count = count
            self.failAt = failAt
        }

        func iterator() -> AnyIterator<Promise<Int>> {
            AnyIterator { [self] in
                let index = made.value
                guard index < count else { return nil }
                made.increment()
                let now = pending.withLock {
                    $0 += 1
                    return $0
                }
                mostPending.withLock { $0 = max($0, now) }
                if index == failAt {  // rejected when made: the error is seen before anything else
                    pending.withLock { $0 -= 1 }
                    return Promise(error: TestError.boom)
                }
                return Promise { seal in
                    DispatchQueue.global().async { [self] in
                        pending.withLock { $0 -= 1 }
                        seal.fulfill(index * 10)
                    }
                }
            }
        }
    }

    @Test(
        "never more than the limit are pending, and every value comes in the order made",
        arguments: [1, 2, 5])
    func limitAndOrder(limit: Int) async throws {
        // Given
        let source = Source(count: 40)

        // When
        let values = try await when(fulfilled: source.iterator(), concurrently: limit).value

        // Then
        #expect(values == (0..<40).map { $0 * 10 })
        #expect(source.mostPending.withLock { $0 } <= limit)
        #expect(source.made.value == 40)
    }

    @Test("the first rejection rejects the result, and no more promises are asked for")
    func firstRejectionStops() async {
        // Given
        let source = Source(count: 100, failAt: 3)

        // When
        let result = await outcome(of: when(fulfilled: source.iterator(), concurrently: 2))

        // Then
        #expect(result.failure as? TestError == .boom)
        #expect(source.made.value == 4)
    }

    @Test("an empty iterator gives no values")
    func emptyIterator() async throws {
        // When
        let values = try await when(fulfilled: AnyIterator<Promise<Int>> { nil }, concurrently: 3).value

        // Then
        #expect(values.isEmpty)
    }

    @Test("a limit below one is refused with a named error", arguments: [0, -1])
    func invalidLimit(limit: Int) async {
        // When
        let result = await outcome(
            of: when(fulfilled: [Promise.value(1)].makeIterator(), concurrently: limit))

        // Then
        #expect(result.failure as? PromiseError == .invalidConcurrency)
    }

    @Test("promises fulfilled already are gathered without the stack growing with their number")
    func manySettledPromises() async throws {
        // Given
        let promises = (0..<100_000).lazy.map { Promise.value($0) }.makeIterator()

        // When
        let values = try await when(fulfilled: promises, concurrently: 3).value

        // Then
        #expect(values.count == 100_000)
        #expect(values.last == 99_999)
    }

    @Test("cancelling the result cancels the running promises and asks for no more")
    func cancellingStops() async {
        // Given
        let made = Counter()
        let cancelled = Counter()
        let iterator = AnyIterator<Promise<Int>> {
            made.increment()
            return Promise { seal in seal.setCancellationHandler { cancelled.increment() } }
        }

        // When
        let all = when(fulfilled: iterator, concurrently: 2)
        all.cancel()
        let result = await outcome(of: all)

        // Then
        #expect(result.failure?.isCancellation == true)
        #expect(made.value == 2)
        #expect(cancelled.value == 2)
    }
}
