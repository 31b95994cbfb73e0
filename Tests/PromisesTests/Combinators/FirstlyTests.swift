import Testing

@testable import Promises

@Suite("firstly")
struct FirstlyTests {
    @Test("firstly starts a chain with the promise its body returns")
    func firstlyStartsChain() async throws {
        // When
        let chained = firstly { Promise.value(2) }.map(on: .global()) { $0 * 10 }

        // Then
        #expect(try await chained.value == 20)
    }

    @Test("an error thrown while starting the chain rejects it")
    func firstlyThrowRejects() async {
        // When
        let chained = firstly { () -> Promise<Int> in throw TestError.boom }

        // Then
        #expect(await outcome(of: chained).failure as? TestError == .boom)
    }

}
