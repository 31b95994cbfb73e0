import Dispatch
import Testing

@testable import Promises

@Suite("race")
struct RaceTests {
    @Test("race settles like the first promise to be fulfilled")
    func firstFulfilledWins() async throws {
        // Given
        let (slow, _) = Promise<String>.pending()
        let (fast, seal) = Promise<String>.pending()
        let winner = race(slow, fast)

        // When
        DispatchQueue.global().async { seal.fulfill("fast") }

        // Then
        #expect(try await winner.value == "fast")
    }

    @Test("race settles like the first promise to be rejected")
    func firstRejectedWins() async {
        // Given
        let (slow, _) = Promise<String>.pending()

        // When
        let winner = race([slow, Promise(error: TestError.boom)])

        // Then
        #expect(await outcome(of: winner).failure as? TestError == .boom)
    }

    @Test("race of nothing rejects with emptyRace")
    func emptyRace() async {
        // When
        let winner = race([Promise<Int>]())

        // Then
        #expect(await outcome(of: winner).failure as? PromiseError == .emptyRace)
    }

    @Test("race(fulfilled:) with no winner rejects with the error of the last to reject")
    func raceFulfilledNoWinnerRejectsWithLastError() async {
        // Given
        let (first, firstSeal) = Promise<Int>.pending()
        let (second, secondSeal) = Promise<Int>.pending()
        let raced = race(fulfilled: [first, second])

        // When: the second rejects first, the first last
        secondSeal.reject(TestError.boom)
        firstSeal.reject(TestError.other)

        // Then
        #expect(await outcome(of: raced).failure as? TestError == .other)
    }
}
