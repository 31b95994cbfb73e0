import Testing

@testable import Promises

@Suite("ensure and finally")
struct PromiseEnsureFinallyTests {
    @Test("ensure runs on fulfilment and passes the value on")
    func ensureOnSuccess() async throws {
        // Given
        let ran = Recorder<String>()

        // When
        let ensured = Promise.value(2).ensure(on: .global()) { ran.append("ensure") }

        // Then
        #expect(try await ensured.value == 2)
        #expect(ran.all == ["ensure"])
    }

    @Test("ensure runs on rejection and passes the error on")
    func ensureOnFailure() async {
        // Given
        let ran = Recorder<String>()

        // When
        let ensured = Promise<Int>(error: TestError.boom).ensure(on: .global()) { ran.append("ensure") }

        // Then
        #expect(await outcome(of: ensured).failure as? TestError == .boom)
        #expect(ran.all == ["ensure"])
    }

    @Test("finally runs last, after catch, whatever the outcome")
    func finallyRunsLast() async {
        // Given
        let queue = MarkedQueue("finally")
        let steps = Recorder<String>()

        // When
        let fulfilled = Promise.value(1)
            .done(on: queue.queue) { _ in steps.append("done") }
            .catch(on: queue.queue) { _ in steps.append("catch") }
            .finally(on: queue.queue) { steps.append("finally 1") }
        let rejected = Promise<Int>(error: TestError.boom)
            .done(on: queue.queue) { _ in steps.append("done") }
            .catch(on: queue.queue) { _ in steps.append("catch") }
            .finally(on: queue.queue) { steps.append("finally 2") }
        await fulfilled.value
        await rejected.value

        // Then
        #expect(steps.all.filter { $0 != "finally 2" && $0 != "catch" } == ["done", "finally 1"])
        #expect(steps.all.filter { $0 != "finally 1" && $0 != "done" } == ["catch", "finally 2"])
    }
}
