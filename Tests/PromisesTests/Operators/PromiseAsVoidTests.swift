import Testing

@testable import Promises

@Suite("asVoid")
struct PromiseAsVoidTests {
    @Test("asVoid keeps whether and how the promise settled")
    func asVoidKeepsOutcome() async throws {
        // When
        let fulfilled = Promise.value(1).asVoid()
        let rejected = Promise<Int>(error: TestError.boom).asVoid()

        // Then
        try await fulfilled.value
        #expect(await outcome(of: rejected).failure as? TestError == .boom)
    }
}
