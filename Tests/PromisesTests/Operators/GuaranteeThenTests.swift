import Dispatch
import Testing

@testable import Promises

/// Moved from the PromiseKit migration tests, where they were written as a PromiseKit user
/// writes them; handlers without `on:` run on the main actor.
@Suite("Guarantee then")
@MainActor
struct GuaranteeThenTests {
    enum Failure: Error, Equatable {
        case boom
    }

    @Test("guarantee.then { promise } is a promise, and its rejection comes through")
    func guaranteeThenPromise() async {
        let chained = Guarantee.value(2).then { value in Promise<Int>(error: Failure.boom) }
        await #expect(throws: Failure.boom) { try await chained.value }
        let doubled = try? await Guarantee.value(2).then { Promise.value($0 * 2) }.value
        #expect(doubled == 4)
    }
}
