import Dispatch
import Testing

@testable import Promises

/// `queue.async(.promise) { ... }`: PromiseKit's way to start a chain with work on a queue.
@Suite("DispatchQueue.async(.promise)")
struct DispatchQueuePromiseTests {
    @Test("the body runs on the queue and the promise carries what it returns")
    func fulfillsOnQueue() async throws {
        // Given
        let marked = MarkedQueue("DispatchQueuePromiseTests")

        // When
        let promise: Promise<Bool> = marked.queue.async(.promise) { () throws -> Bool in marked.isCurrent }

        // Then
        #expect(try await promise.value)
    }

    @Test("a body that throws rejects the promise")
    func throwingRejects() async {
        // When
        let promise = DispatchQueue.global().async(.promise) { () throws -> Int in throw TestError.boom }

        // Then
        #expect(await outcome(of: promise).failure as? TestError == .boom)
    }

    @Test("a body that cannot throw gives a guarantee")
    func nonThrowingGivesGuarantee() async {
        // When
        let guarantee = DispatchQueue.global().async(.promise) { 6 * 7 }

        // Then
        #expect("\(type(of: guarantee))" == "Guarantee<Int>")
        #expect(await guarantee.value == 42)
    }

    @Test("the work belongs to the group it is given")
    func joinsGroup() async {
        // Given: work held until the test lets it go
        let group = DispatchGroup()
        let gate = DispatchSemaphore(value: 0)

        // When
        let guarantee = DispatchQueue.global().async(.promise, group: group) { () -> Int in
            gate.wait()
            return 1
        }
        let groupBusy = Self.isBusy(group)
        gate.signal()

        // Then
        #expect(groupBusy)
        #expect(await guarantee.value == 1)
    }

    /// Whether `group` has work not yet finished; answers at once.
    private static func isBusy(_ group: DispatchGroup) -> Bool {
        group.wait(timeout: .now()) == .timedOut
    }
}
