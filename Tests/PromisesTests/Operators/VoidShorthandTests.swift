import Testing

@testable import Promises

/// PromiseKit's shorthands for a settled promise or guarantee of nothing.
@Suite("Promise and Guarantee of nothing, the shorthands")
struct VoidShorthandTests {
    @Test("Promise<Void>.value is a promise already fulfilled")
    func promiseValue() {
        // When
        let promise = Promise<Void>.value

        // Then
        #expect(promise.isFulfilled)
    }

    @Test("Guarantee() and Guarantee<Void>.value are guarantees already fulfilled")
    func guaranteeValue() {
        // When
        let made = Guarantee()
        let named = Guarantee<Void>.value

        // Then
        #expect(!made.isPending)
        #expect(!named.isPending)
    }
}
