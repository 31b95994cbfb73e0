import Testing

@testable import Promises

/// `print(promise)` and `debugPrint(promise)` show what the promise holds, as PromiseKit prints
/// them (its `CustomStringConvertible.swift`); a guarantee in the same format.
@Suite("Promise and Guarantee descriptions")
struct PromiseDescriptionTests {
    @Test("a fulfilled promise prints its value")
    func fulfilled() async throws {
        // Given
        let (later, seal) = Promise<Int>.pending()
        seal.fulfill(3)
        _ = try await later.value

        // Then
        #expect("\(Promise.value(3))" == "Promise(3)")
        #expect("\(later)" == "Promise(3)")
        #expect(String(reflecting: Promise.value("a")) == "Promise<String>.fulfilled(a)")
    }

    @Test("a pending promise prints the type it waits for, and in debug how many handlers wait")
    func pending() {
        // Given
        let (promise, seal) = Promise<Int>.pending()
        defer { seal.fulfill(0) }
        let before = String(reflecting: promise)

        // When
        promise.done(on: .inline) { _ in }.cauterize()
        promise.done(on: .inline) { _ in }.cauterize()

        // Then
        #expect("\(promise)" == "Promise(…Int)")
        #expect(before == "Promise<Int>.pending(handlers: 0)")
        #expect(String(reflecting: promise) == "Promise<Int>.pending(handlers: 2)")
    }

    @Test("a rejected promise prints its error, and printing does not handle it")
    func rejected() {
        // Given
        let promise = Promise<Int>(error: TestError.boom)

        // When
        let text = "\(promise)"
        let debugText = String(reflecting: promise)
        let stillUnobserved = promise.update({ !$0.observed }, immediate: { _ in false })

        // Then
        #expect(text == "Promise(boom)")
        #expect(debugText == "Promise<Int>.rejected(TestError.boom)")
        #expect(stillUnobserved)
        _ = promise.result  // handled, so that nothing is reported
    }

    @Test("a guarantee prints in the promise's format")
    func guarantee() {
        // Given
        let (pending, resolve) = Guarantee<Int>.pending()
        defer { resolve(0) }

        // Then
        #expect("\(Guarantee.value(3))" == "Guarantee(3)")
        #expect("\(pending)" == "Guarantee(…Int)")
        #expect(String(reflecting: Guarantee.value(3)) == "Guarantee<Int>.fulfilled(3)")
        #expect(String(reflecting: pending) == "Guarantee<Int>.pending(handlers: 0)")
    }
}
