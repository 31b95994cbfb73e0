import Testing

@testable import Promises

/// `print(promise)` shows what the promise holds, as PromiseKit prints it.
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
        #expect(String(reflecting: Promise.value("a")) == "Promise<String>(\"a\")")
    }

    @Test("a pending promise prints pending")
    func pending() {
        // Given
        let (promise, seal) = Promise<Int>.pending()
        defer { seal.fulfill(0) }

        // Then
        #expect("\(promise)" == "Promise(pending)")
        #expect(String(reflecting: promise) == "Promise<Int>(pending)")
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
        #expect(text == "Promise(rejected: boom)")
        #expect(debugText.hasPrefix("Promise<Int>(rejected: "))
        #expect(debugText.hasSuffix("TestError.boom)"))
        #expect(stillUnobserved)
        _ = promise.result  // handled, so that nothing is reported
    }

    @Test("a guarantee prints as a guarantee")
    func guarantee() {
        // Given
        let (pending, resolve) = Guarantee<Int>.pending()
        defer { resolve(0) }

        // Then
        #expect("\(Guarantee.value(3))" == "Guarantee(3)")
        #expect("\(pending)" == "Guarantee(pending)")
        #expect(String(reflecting: Guarantee.value(3)) == "Guarantee<Int>(3)")
    }
}
