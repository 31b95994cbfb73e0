import Dispatch
import Testing

@testable import Promises

/// Moved from the PromiseKit migration tests, where they were written as a PromiseKit user
/// writes them; handlers without `on:` run on the main actor.
@Suite("Promise sequence helpers")
@MainActor
struct PromiseSequenceTests {
    enum Failure: Error, Equatable {
        case boom
    }

    @Test("mapValues, flatMapValues, compactMapValues, filterValues, sortedValues")
    func sequenceMaps() async throws {
        let numbers = Promise.value([3, 1, 2])
        #expect(try await numbers.mapValues { $0 * 10 }.value == [30, 10, 20])
        #expect(try await numbers.flatMapValues { [$0, $0] }.value == [3, 3, 1, 1, 2, 2])
        #expect(try await numbers.compactMapValues { $0 == 1 ? nil : $0 }.value == [3, 2])
        #expect(try await numbers.filterValues { $0 > 1 }.value == [3, 2])
        #expect(try await numbers.sortedValues().value == [1, 2, 3])
        #expect(try await numbers.mapValues(on: .global()) { $0 + 1 }.value == [4, 2, 3])
    }

    @Test("sortedValues with an order: descending on the main actor, by length on a queue")
    func sortedByAnOrder() async throws {
        // Given
        let numbers = Promise.value([3, 1, 2])
        let words = Promise.value(["ccc", "a", "bb"])

        // When
        let descending = numbers.sortedValues { $0 > $1 }
        let byLength = words.sortedValues(on: .global()) { $0.count < $1.count }

        // Then
        #expect(try await descending.value == [3, 2, 1])
        #expect(try await byLength.value == ["a", "bb", "ccc"])
    }

    @Test("thenMap and thenFlatMap wait for a promise per element, in order")
    func thenMaps() async throws {
        let numbers = Promise.value([1, 2])
        #expect(try await numbers.thenMap { Promise.value($0 * 2) }.value == [2, 4])
        #expect(try await numbers.thenFlatMap { Promise.value([$0, -$0]) }.value == [1, -1, 2, -2])
        let failing = numbers.thenMap { $0 == 2 ? Promise<Int>(error: Failure.boom) : Promise.value($0) }
        await #expect(throws: Failure.boom) { try await failing.value }
    }

    @Test("firstValue and lastValue, and an empty sequence's error")
    func firstAndLast() async throws {
        #expect(try await Promise.value([1, 2, 3]).firstValue.value == 1)
        #expect(try await Promise.value([1, 2, 3]).lastValue.value == 3)
        await #expect(throws: PromiseError.emptySequence) {
            try await Promise.value([Int]()).firstValue.value
        }
        await #expect(throws: PromiseError.emptySequence) { try await Promise.value([Int]()).lastValue.value }
    }
}
