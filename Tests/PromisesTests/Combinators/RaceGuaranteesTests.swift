import Dispatch
import Foundation
import Testing

@testable import Promises

/// `race` over an array of guarantees (`Race.swift`), and the void `when(fulfilled:)` given one by
/// one (`When.swift`), as PromiseKit has them.
@Suite("race over guarantees, when over promises of nothing")
struct RaceGuaranteesTests {
    @Test("race over an array of guarantees gives the first to be fulfilled")
    func raceArrayOfGuarantees() async {
        // Given
        let (slow, resolveSlow) = Guarantee<Int>.pending()
        defer { resolveSlow(1) }

        // When
        let winner = race([slow, Guarantee.value(2)])

        // Then
        #expect(await winner.value == 2)
    }

    @Test("when(fulfilled:) over promises of nothing, one by one, gives a promise of nothing")
    func voidWhenVariadic() async throws {
        // Given
        let (later, seal) = Promise<Void>.pending()
        let both = when(fulfilled: Promise(), later)
        let pendingUntilBoth = both.isPending

        // When
        seal.fulfill(())
        try await both.value

        // Then
        #expect(pendingUntilBoth)
        #expect("\(type(of: both))" == "Promise<()>")
    }

    @Test("the same rejects with the first error")
    func voidWhenVariadicRejects() async {
        // When
        let both = when(fulfilled: Promise(), Promise(error: TestError.boom))

        // Then
        #expect(await outcome(of: both).failure as? TestError == .boom)
    }

    @Test("a cancelled promise's error says so in words")
    func cancellationDescriptions() async {
        // Given
        let (promise, _) = Promise<Int>.pending()

        // When
        promise.cancel()
        let error = await outcome(of: promise).failure

        // Then
        #expect(error?.localizedDescription == "The operation was cancelled.")
        #expect(
            String(reflecting: CancellationError()) == "CancellationError: the promise or task was cancelled")
    }
}
