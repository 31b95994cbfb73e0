import Dispatch
import Testing

@testable import Promises

/// Promises/A+ 2.3.1: a handler that returns the promise its own step makes (found by the
/// Promises/A+ run and the stress run): rejected with `returnedSelf`, never waiting on itself,
/// and freed once settled.
@Suite("Promises/A+ 2.3.1: a step that returns itself", .serialized)
struct ReturnedSelfTests {
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
            weakStep = step.storage
            weakUpstream = upstream.storage

            // When
            seal.fulfill(1)
            _ = step.result
            own.withLock { $0 = nil }  // the handler's own capture, as `var p` would be
        }

        // Then
        #expect(weakStep == nil)
        #expect(weakUpstream == nil)
    }
}
