import Dispatch
import Testing

@testable import Promises

@Suite("when")
struct WhenTests {
    @Test("when(fulfilled:) gives every value in input order, whatever order they arrive in")
    func whenFulfilledKeepsOrder() async throws {
        // Given
        let pairs = (0..<20).map { _ in Promise<Int>.pending() }
        let all = when(fulfilled: pairs.map(\.promise))

        // When
        for (index, pair) in pairs.enumerated().reversed() {
            DispatchQueue.global().async { pair.seal.fulfill(index) }
        }

        // Then
        #expect(try await all.value == Array(0..<20))
    }

    @Test("when(fulfilled:) rejects with the first error")
    func whenFulfilledRejects() async {
        // Given
        let (pending, _) = Promise<Int>.pending()

        // When
        let all = when(fulfilled: [Promise.value(1), Promise(error: TestError.boom), pending])

        // Then
        #expect(await outcome(of: all).failure as? TestError == .boom)
    }

    @Test("when(fulfilled:) of nothing fulfills at once with nothing")
    func whenFulfilledEmpty() async throws {
        // When
        let all = when(fulfilled: [Promise<Int>]())

        // Then
        #expect(try await all.value == [])
    }

    @Test("when(fulfilled:) with two, three and four promises gives typed tuples")
    func whenFulfilledTuples() async throws {
        // When
        let two = when(fulfilled: Promise.value(1), Promise.value("a"))
        let three = when(fulfilled: Promise.value(1), Promise.value("a"), Promise.value(true))
        let four = when(
            fulfilled: Promise.value(1), Promise.value("a"), Promise.value(true), Promise.value(2.5))

        // Then
        let (number, letter) = try await two.value
        #expect(number == 1 && letter == "a")
        let threeValues = try await three.value
        #expect(threeValues.0 == 1 && threeValues.1 == "a" && threeValues.2)
        let fourValues = try await four.value
        #expect(fourValues.0 == 1 && fourValues.1 == "a" && fourValues.2 && fourValues.3 == 2.5)
    }

    @Test("when(fulfilled:) with a tuple rejects when one of them rejects")
    func whenFulfilledTupleRejects() async {
        // When
        let two = when(fulfilled: Promise.value(1), Promise<String>(error: TestError.other))

        // Then
        #expect(await outcome(of: two).failure as? TestError == .other)
    }

    @Test("when(resolved:) waits for every outcome, values and errors, in input order")
    func whenResolvedMixed() async throws {
        // Given
        let (late, seal) = Promise<Int>.pending()
        let all = when(resolved: [Promise.value(1), Promise(error: TestError.boom), late])

        // When
        DispatchQueue.global().async { seal.fulfill(3) }
        let results = await all.value

        // Then
        #expect(results.count == 3)
        #expect(try results[0].get() == 1)
        #expect(results[1].failure as? TestError == .boom)
        #expect(try results[2].get() == 3)
    }

    @Test("when(resolved:) of nothing fulfills at once with nothing")
    func whenResolvedEmpty() async {
        // When
        let results = await when(resolved: [Promise<Int>]()).value

        // Then
        #expect(results.isEmpty)
    }
}
