import Testing

@testable import Promises

/// A settled chain frees every promise and handler.
@Suite("Memory")
struct MemoryTests {
    /// An object a handler captures, to see when the handler is released.
    final class Payload: Sendable {}

    @Test("the values and errors promises settled with are released with the promises")
    func settledValuesAreFreed() {
        // Given
        weak var weakValue: Payload?
        weak var weakMapped: Payload?
        weak var weakError: PayloadError?
        do {
            let (promise, seal) = Promise<Payload>.pending()
            let (failing, failingSeal) = Promise<Int>.pending()
            let mapped = promise.map(on: .inline) { _ in Payload() }
            let value = Payload()
            let error = PayloadError()
            weakValue = value
            weakError = error

            // When
            seal.fulfill(value)
            failingSeal.reject(error)
            weakMapped = mapped.result.flatMap { try? $0.get() }
            _ = failing.result
        }

        // Then
        #expect(weakValue == nil)
        #expect(weakMapped == nil)
        #expect(weakError == nil)
    }

    /// An error that is an object, to see when it is released.
    final class PayloadError: Error, Sendable {}

    @Test("a settled chain frees every promise and what its handlers captured")
    func settledChainIsFreed() throws {
        // Given
        weak var weakFirst: LockedBuffer<PromiseState<Int>>?
        weak var weakLast: LockedBuffer<PromiseState<Void>>?
        weak var weakPayload: Payload?
        do {
            let (first, seal) = Promise<Int>.pending()
            let payload = Payload()
            let last =
                first
                .map(on: .inline) { value -> Int in
                    _ = payload
                    return value + 1
                }
                .then(on: .inline) { Promise.value($0 * 2) }
                .get(on: .inline) { _ in }
                .recover(on: .inline) { _ in Promise.value(0) }
                .ensure(on: .inline) {}
                .done(on: .inline) { _ in }
            weakFirst = first.storage
            weakLast = last.storage
            weakPayload = payload

            // When
            seal.fulfill(1)
            #expect(last.isFulfilled)
        }

        // Then
        #expect(weakFirst == nil)
        #expect(weakLast == nil)
        #expect(weakPayload == nil)
    }

    @Test("a rejected chain frees every promise too")
    func rejectedChainIsFreed() {
        // Given
        weak var weakFirst: LockedBuffer<PromiseState<Int>>?
        weak var weakLast: LockedBuffer<PromiseState<Int>>?
        do {
            let (first, seal) = Promise<Int>.pending()
            let last = first.map(on: .inline) { $0 }.catch(on: .inline) { _ in }
            weakFirst = first.storage
            weakLast = last.storage

            // When
            seal.reject(TestError.boom)
            #expect(last.isRejected)
        }

        // Then
        #expect(weakFirst == nil)
        #expect(weakLast == nil)
    }

    @Test("a cancelled chain frees its promises and its cancellation handlers")
    func cancelledChainIsFreed() {
        // Given
        weak var weakFirst: LockedBuffer<PromiseState<Int>>?
        weak var weakPayload: Payload?
        do {
            let (first, seal) = Promise<Int>.pending()
            let payload = Payload()
            seal.setCancellationHandler { _ = payload }
            let last = first.map(on: .inline) { $0 }
            weakFirst = first.storage
            weakPayload = payload

            // When
            last.cancel()
            #expect(first.isCancelled)
        }

        // Then
        #expect(weakFirst == nil)
        #expect(weakPayload == nil)
    }
}
