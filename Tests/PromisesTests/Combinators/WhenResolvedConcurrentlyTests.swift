import Dispatch
import Testing

@testable import Promises

/// `when(resolved:concurrently:)` (`When+ResolvedConcurrently.swift`): at most `limit` pending at
/// once, every outcome kept in order, a rejection stops nothing.
@Suite("when(resolved:concurrently:)")
struct WhenResolvedConcurrentlyTests {
    @Test("every outcome comes in the order made, rejections among them, and no more than the limit wait")
    func outcomesInOrder() async {
        // Given: 20 promises, every fifth rejected
        let source = WhenConcurrentlyTests.Source(count: 20, failAt: 5)

        // When
        let results = await when(resolved: source.iterator(), concurrently: 2).value

        // Then
        #expect(results.count == 20)
        #expect(results.map { (try? $0.get()) ?? -1 } == (0..<20).map { $0 == 5 ? -1 : $0 * 10 })
        #expect((results[5].failure) as? TestError == .boom)
        #expect(source.made.value == 20)
        #expect(source.mostPending.withLock { $0 } <= 2)
    }

    @Test("a limit below one counts as one", arguments: [0, -3])
    func limitBelowOne(limit: Int) async {
        // When
        let results = await when(
            resolved: [Promise.value(1), Promise.value(2)].makeIterator(), concurrently: limit
        )
        .value

        // Then
        #expect(results.map { try? $0.get() } == [1, 2])
    }

    @Test("guarantees may be given too")
    func guarantees() async {
        // When
        let results = await when(resolved: [Guarantee.value("a")].makeIterator(), concurrently: 1).value

        // Then
        #expect(results.map { try? $0.get() } == ["a"])
    }
}
