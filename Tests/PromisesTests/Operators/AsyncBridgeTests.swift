import Dispatch
import Testing

@testable import Promises

@Suite("async/await bridge")
struct AsyncBridgeTests {
    @Test("awaiting a promise gives its value once it is fulfilled")
    func awaitValue() async throws {
        // Given
        let (promise, seal) = Promise<String>.pending()

        // When
        DispatchQueue.global().async { seal.fulfill("song") }

        // Then
        #expect(try await promise.value == "song")
    }

    @Test("awaiting a rejected promise throws its error")
    func awaitThrows() async {
        // Given
        let (promise, seal) = Promise<String>.pending()

        // When
        DispatchQueue.global().async { seal.reject(TestError.boom) }

        // Then
        await #expect(throws: TestError.boom) { try await promise.value }
    }

    @Test("a cancelled task awaiting a promise already settled gets its value, not a cancellation")
    func cancelledTaskGetsSettledValue() async throws {
        // Given: a fulfilled promise, and a task cancelled before it awaits it
        let promise = Promise.value("song")

        // When
        let awaited = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await promise.value
        }.result

        // Then: settled before the cancellation mattered
        #expect(try awaited.get() == "song")
    }

    @Test("a promise made from an async closure fulfills with what it returns")
    func promiseFromAsync() async throws {
        // When
        let promise = Promise<Int> {
            await Task.yield()
            return 12
        }

        // Then
        #expect(try await promise.value == 12)
    }

    @Test("a promise made from an async closure rejects with what it throws")
    func promiseFromThrowingAsync() async {
        // When
        let promise = Promise<Int> {
            await Task.yield()
            throw TestError.other
        }

        // Then
        await #expect(throws: TestError.other) { try await promise.value }
    }

    @Test("awaiting a guarantee gives its value")
    func awaitGuarantee() async {
        // Given
        let (guarantee, resolve) = Guarantee<Int>.pending()

        // When
        DispatchQueue.global().async { resolve(8) }

        // Then
        #expect(await guarantee.value == 8)
    }

    @Test("a guarantee made from an async closure fulfills with what it returns")
    func guaranteeFromAsync() async {
        // When
        let guarantee = Guarantee<String> {
            await Task.yield()
            return "ok"
        }

        // Then
        #expect(await guarantee.value == "ok")
    }
}
