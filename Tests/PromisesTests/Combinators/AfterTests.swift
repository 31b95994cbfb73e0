import Testing

@testable import Promises

@Suite("after")
struct AfterTests {
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
