import Testing

@testable import Promises

@Suite("catch")
struct PromiseCatchTests {
    @Test("catch sees the error and returns a promise that is still rejected with it")
    func catchSeesErrorAndStaysAwaitable() async {
        // Given
        let caught = Recorder<TestError>()

        // When
        let chained = Promise<Int>(error: TestError.boom).catch(on: .global()) { error in
            caught.append(error as? TestError ?? .other)
        }

        // Then
        #expect(await outcome(of: chained).failure as? TestError == .boom)
        #expect(caught.all == [.boom])
    }

    @Test("catch is skipped when the promise is fulfilled, and passes the value on")
    func catchSkippedOnSuccess() async throws {
        // Given
        let caught = Recorder<String>()

        // When
        let chained = Promise.value(4).catch(on: .global()) { caught.append("\($0)") }

        // Then
        #expect(try await chained.value == 4)
        #expect(caught.all.isEmpty)
    }

    @Test("catch skips a cancellation by default")
    func catchSkipsCancellation() async {
        // Given
        let caught = Recorder<String>()
        let (promise, _) = Promise<Int>.pending()
        let chained = promise.catch(on: .global()) { caught.append("\($0)") }

        // When
        promise.cancel()

        // Then
        #expect(await outcome(of: chained).failure is CancellationError)
        #expect(caught.all.isEmpty)
    }

    @Test("catch(policy: .allErrors) sees a cancellation")
    func catchAllErrorsSeesCancellation() async {
        // Given
        let caught = Recorder<Bool>()
        let (promise, _) = Promise<Int>.pending()
        let chained = promise.catch(on: .global(), policy: .allErrors) { caught.append($0.isCancellation) }

        // When
        promise.cancel()

        // Then
        #expect(await outcome(of: chained).failure is CancellationError)
        #expect(caught.all == [true])
    }

    @Test("an error type of the app's own that says it is a cancellation is skipped too")
    func catchSkipsCancellableError() async {
        // Given
        struct Cancelled: CancellableError { var isCancelled: Bool { true } }
        let caught = Recorder<String>()

        // When
        let chained = Promise<Int>(error: Cancelled()).catch(on: .global()) { caught.append("\($0)") }

        // Then
        #expect(await outcome(of: chained).failure is Cancelled)
        #expect(caught.all.isEmpty)
    }
}
