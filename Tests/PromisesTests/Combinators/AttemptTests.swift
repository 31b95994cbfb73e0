import Testing

@testable import Promises

@Suite("attempt and retry")
struct AttemptTests {
    @Test("attempt retries until the body succeeds")
    func retriesUntilSuccess() async throws {
        // Given
        let calls = Counter()

        // When
        let result = attempt(maximumAttempts: 5, delayBeforeRetry: 0) { () -> Promise<Int> in
            let call = calls.increment()
            return call < 3 ? Promise(error: TestError.boom) : .value(call)
        }

        // Then
        #expect(try await result.value == 3)
        #expect(calls.value == 3)
    }

    @Test("attempt gives up after the maximum and rejects with the last error")
    func givesUpAfterMaximum() async {
        // Given
        let calls = Counter()

        // When
        let result = retry(maximumAttempts: 3, delayBeforeRetry: 0) { () -> Promise<Int> in
            calls.increment()
            throw TestError.boom
        }

        // Then
        #expect(await outcome(of: result).failure as? TestError == .boom)
        #expect(calls.value == 3)
    }

    @Test("attempt stops at an error the condition refuses")
    func conditionStopsRetries() async {
        // Given
        let calls = Counter()

        // When
        let onlyBoom: @Sendable (any Error) -> Bool = { $0 as? TestError == .boom }
        let result = attempt(maximumAttempts: 5, delayBeforeRetry: 0, retryIf: onlyBoom) {
            () -> Promise<Int> in
            calls.increment()
            return Promise(error: TestError.other)
        }

        // Then
        #expect(await outcome(of: result).failure as? TestError == .other)
        #expect(calls.value == 1)
    }

    @Test("an attempt that ends in a cancellation is not tried again, whatever the condition says")
    func cancellationIsNotRetried() async {
        // Given
        let calls = Counter()

        // When
        let result = attempt(maximumAttempts: 5, delayBeforeRetry: 0) { () -> Promise<Int> in
            calls.increment()
            return Promise(error: CancellationError())
        }

        // Then
        #expect(await outcome(of: result).failure is CancellationError)
        #expect(calls.value == 1)
    }

    @Test("cancelling attempt stops the retries")
    func cancellingStopsRetries() async {
        // Given
        let calls = Counter()
        let result = attempt(maximumAttempts: 5, delayBeforeRetry: 3600) { () -> Promise<Int> in
            calls.increment()
            return Promise(error: TestError.boom)
        }

        // When
        result.cancel()

        // Then
        #expect(await outcome(of: result).failure is CancellationError)
        #expect(calls.value == 1)
    }
}
