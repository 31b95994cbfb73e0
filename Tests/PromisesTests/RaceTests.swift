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
}
