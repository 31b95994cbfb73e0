import Dispatch
import Testing

@testable import Promises

/// Moved from the PromiseKit migration tests, where they were written as a PromiseKit user
/// writes them; handlers without `on:` run on the main actor.
@Suite("Guarantee map")
@MainActor
struct GuaranteeMapTests {
    enum Failure: Error, Equatable {
        case boom
    }

    @Test("a throwing guarantee.map is a promise; a non-throwing one stays a guarantee")
    func throwingGuaranteeMap() async {
        let failing: Promise<Int> = Guarantee.value(1).map { _ in throw Failure.boom }
        await #expect(throws: Failure.boom) { try await failing.value }
        let kept: Guarantee<Int> = Guarantee.value(1).map { $0 + 1 }
        #expect(await kept.value == 2)
    }
}
