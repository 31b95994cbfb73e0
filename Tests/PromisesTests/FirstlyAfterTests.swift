import Testing

@testable import Promises

@Suite("firstly and after")
struct FirstlyAfterTests {
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

    @Test("after fulfills a guarantee once the delay passed")
    func afterFulfills() async {
        // Given
        let delay = after(seconds: 0.01)

        // When
        await delay.value

        // Then
        #expect(!delay.isPending)
    }

    @Test("after with a zero, negative or infinite delay still fulfills")
    func afterOddDelays() async {
        // When
        let delays = [after(seconds: 0), after(seconds: -1), after(seconds: .nan)]

        // Then
        for delay in delays {
            await delay.value
            #expect(!delay.isPending)
        }
    }
}
