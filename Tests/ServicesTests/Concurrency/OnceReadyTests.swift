import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// Work that runs once, when first asked for.
@Suite("OnceReady")
struct OnceReadyTests {
    @Test("the work starts at the first ask, once, and every caller shares its promise")
    func startsOnceWhenAsked() async {
        // Given
        let starts = Locked(0)
        let (work, seal) = Promise<Void>.pending()
        let gate = OnceReady {
            starts.withLock { $0 += 1 }
            return work
        }
        #expect(starts.withLock { $0 } == 0)

        // When
        let first = gate.promise()
        let second = gate.promise()
        seal.fulfill(())

        // Then
        #expect(await PromiseExpectations.value(of: first) != nil)
        #expect(await PromiseExpectations.value(of: second) != nil)
        #expect(starts.withLock { $0 } == 1)
    }
}
