import Dispatch
import Testing

@testable import Promises

/// Moved from the PromiseKit migration tests, where they were written as a PromiseKit user
/// writes them; handlers without `on:` run on the main actor.
@Suite("ensureThen")
@MainActor
struct PromiseEnsureThenTests {
    enum Failure: Error, Equatable {
        case boom
    }

    @Test("ensureThen waits for its clean-up, then passes the outcome on")
    func ensureThen() async {
        let (started, signalStarted) = Guarantee<Void>.pending()
        let (cleanedUp, finish) = Guarantee<Void>.pending()
        let passed = Promise<Int>(error: Failure.boom).ensureThen {
            signalStarted(())
            return cleanedUp
        }
        await started.value
        #expect(passed.isPending)  // the clean-up has not finished
        finish(())
        await #expect(throws: Failure.boom) { try await passed.value }
    }
}
