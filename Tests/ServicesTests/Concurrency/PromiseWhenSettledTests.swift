import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// Seeing how a promise settled, whatever it is.
@Suite("Promise.whenSettled")
struct PromiseWhenSettledTests {
    @Test("a cancelled promise is seen as a failure, like any other rejection")
    func cancellationSeen() async {
        // Given
        let (promise, _) = Promise<Int>.pending()
        let (seen, resolve) = Guarantee<Bool>.pending()
        promise.whenSettled(on: .inline) { result in
            if case .failure(let error) = result { resolve(error.isCancellation) } else { resolve(false) }
        }

        // When
        promise.cancel()

        // Then
        #expect(await PromiseExpectations.value(of: seen) == true)
    }
}
