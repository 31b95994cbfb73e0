import Dispatch
import Testing

@testable import Promises

/// What Promises/A+ and a randomised stress run found, each kept fixed by a test.
@Suite("Found by Promises/A+ and the stress run", .serialized)
struct FoundByStressTests {
    @Test("2.3.1: a then whose handler returns the promise its step makes rejects with returnedSelf")
    func thenReturningItself() async {
        // Given
        let (upstream, seal) = Promise<Int>.pending()
        let own = Locked<Promise<Int>?>(nil)
        let step = upstream.then(on: .inline) { _ in own.withLock { $0 } ?? Promise.value(0) }
        own.withLock { $0 = step }

        // When
        seal.fulfill(1)

        // Then
        #expect(step.result?.failure as? PromiseError == .returnedSelf)
        own.withLock { $0 = nil }
    }

    @Test("2.3.1: a recover whose handler returns the promise its step makes rejects with returnedSelf")
    func recoverReturningItself() {
        // Given
        let (upstream, seal) = Promise<Int>.pending()
        let own = Locked<Promise<Int>?>(nil)
        let step = upstream.recover(on: .inline) { _ in own.withLock { $0 } ?? Promise.value(0) }
        own.withLock { $0 = step }

        // When
        seal.reject(TestError.boom)

        // Then
        #expect(step.result?.failure as? PromiseError == .returnedSelf)
        own.withLock { $0 = nil }
    }

    @Test("a step that returned itself is freed once it settled, and so is its upstream")
    func returnedSelfIsFreed() {
        // Given
        weak var weakStep: LockedBuffer<PromiseState<Int>>?
        weak var weakUpstream: LockedBuffer<PromiseState<Int>>?
        do {
            let (upstream, seal) = Promise<Int>.pending()
            let own = Locked<Promise<Int>?>(nil)
            let step = upstream.then(on: .inline) { _ in own.withLock { $0 } ?? Promise.value(0) }
            own.withLock { $0 = step }
            weakStep = step.state?.buffer
            weakUpstream = upstream.state?.buffer

            // When
            seal.fulfill(1)
            _ = step.result
            own.withLock { $0 = nil }  // the handler's own capture, as `var p` would be
        }

        // Then
        #expect(weakStep == nil)
        #expect(weakUpstream == nil)
    }

    @Test("cancelling a guarantee's promise view, or a chain on it, never rejects the guarantee")
    func guaranteeCannotBeRejected() async {
        // Given
        let (guarantee, resolve) = Guarantee<Int>.pending()

        // When
        guarantee.asPromise().cancel()
        guarantee.asPromise().map(on: .inline) { $0 + 1 }.cancel()
        Promise.value(0).then(on: .inline) { _ in guarantee.asPromise() }.cancel()
        resolve(7)

        // Then
        #expect(await guarantee.value == 7)
        #expect(guarantee.asPromise().result?.success == 7)
    }
}

/// A type only the dropped-chain test makes, so its report can be told from others.
struct DroppedMarker: Sendable {}

extension Result {
    /// The value of a success, for assertions.
    var success: Success? {
        try? get()
    }
}
