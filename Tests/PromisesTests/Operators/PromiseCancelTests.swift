import Dispatch
import Testing

@testable import Promises

@Suite("Cancellation")
struct PromiseCancelTests {
    @Test("a cancellation handler set on a promise cancelled already runs at once")
    func handlerSetAfterTheCancellationRuns() {
        // Given
        let (promise, seal) = Promise<Int>.pending()
        promise.cancel()
        let stopped = Locked(0)

        // When
        seal.setCancellationHandler { stopped.withLock { $0 += 1 } }

        // Then
        #expect(stopped.withLock { $0 } == 1)
    }

    @Test("a cancellation handler set on a promise fulfilled already never runs")
    func handlerSetAfterFulfilmentNeverRuns() {
        // Given
        let (promise, seal) = Promise<Int>.pending()
        seal.fulfill(1)
        let stopped = Locked(0)

        // When
        seal.setCancellationHandler { stopped.withLock { $0 += 1 } }
        promise.cancel()

        // Then
        #expect(stopped.withLock { $0 } == 0)
        #expect(promise.isFulfilled)
    }

    @Test("isCancelled holds for a cancellation only: not while pending, nor once fulfilled or rejected")
    func isCancelledOnlyForACancellation() {
        // Given
        let (pending, _) = Promise<Int>.pending()
        let (fulfilled, fulfilling) = Promise<Int>.pending()
        let (rejected, rejecting) = Promise<Int>.pending()
        let (cancelled, _) = Promise<Int>.pending()
        rejected.cauterize()

        // When
        fulfilling.fulfill(1)
        rejecting.reject(TestError.boom)
        cancelled.cancel()

        // Then
        #expect(!pending.isCancelled)
        #expect(!fulfilled.isCancelled)
        #expect(!rejected.isCancelled)
        #expect(cancelled.isCancelled)
    }

    @Test("a race or a when over an input already cancelled leaves the other inputs running")
    func alreadyCancelledInputLeavesTheOthersAlone() {
        // Given: work that can be stopped, and an input cancelled before the combinators are made
        let (work, seal) = Promise<Int>.pending()
        let stopped = Locked(0)
        seal.setCancellationHandler { stopped.withLock { $0 += 1 } }
        let cancelled = Promise<Int>.pending().promise
        cancelled.cancel()

        // When
        let raced = race([cancelled, work])
        let all = when(fulfilled: [cancelled, work])

        // Then: both settle with the cancellation, and the work goes on
        #expect(raced.isCancelled)
        #expect(all.isCancelled)
        #expect(stopped.withLock { $0 } == 0)
        #expect(work.isPending)

        // When: the race made before is itself cancelled, the work is not affected (it lost)
        raced.cancel()
        seal.fulfill(1)
        #expect(work.isFulfilled)
        #expect(stopped.withLock { $0 } == 0)
    }

    @Test("cancelling a race(fulfilled:) cancels the inputs still running")
    func cancellingRaceFulfilledCancelsItsInputs() {
        // Given
        let inputs = (0..<2).map { _ in Promise<Int>.pending() }
        let stopped = Locked(0)
        for input in inputs { input.seal.setCancellationHandler { stopped.withLock { $0 += 1 } } }

        // When
        race(fulfilled: inputs.map(\.promise)).cancel()

        // Then
        #expect(stopped.withLock { $0 } == 2)
        #expect(inputs.allSatisfy { $0.promise.isCancelled })
    }

    @Test("cancelling a race or a when still cancels the inputs that can be cancelled")
    func cancellingTheCombinatorCancelsItsInputs() {
        // Given
        let (first, firstSeal) = Promise<Int>.pending()
        let (second, secondSeal) = Promise<Int>.pending()
        let stopped = Locked(0)
        firstSeal.setCancellationHandler { stopped.withLock { $0 += 1 } }
        secondSeal.setCancellationHandler { stopped.withLock { $0 += 1 } }

        // When
        race([first]).cancel()
        when(fulfilled: [second]).cancel()

        // Then
        #expect(stopped.withLock { $0 } == 2)
        #expect(first.isCancelled && second.isCancelled)
    }

    @Test("cancel rejects a pending promise with CancellationError")
    func cancelRejectsPending() async {
        // Given
        let (promise, seal) = Promise<Int>.pending()

        // When
        promise.cancel()
        seal.fulfill(1)

        // Then
        #expect(promise.isCancelled)
        #expect(await outcome(of: promise).failure is CancellationError)
    }

    @Test("cancel leaves a settled promise alone")
    func cancelIgnoresSettled() async throws {
        // Given
        let promise = Promise.value(1)

        // When
        promise.cancel()

        // Then
        #expect(!promise.isCancelled)
        #expect(try await promise.value == 1)
    }

    @Test("cancel runs the seal's cancellation handler once, and not after the promise settled")
    func cancellationHandlerRunsOnce() {
        // Given
        let cancelled = Recorder<String>()
        let (first, firstSeal) = Promise<Int>.pending()
        firstSeal.setCancellationHandler { cancelled.append("first") }
        let (second, secondSeal) = Promise<Int>.pending()
        secondSeal.setCancellationHandler { cancelled.append("second") }

        // When
        first.cancel()
        first.cancel()
        secondSeal.fulfill(2)
        second.cancel()

        // Then
        #expect(cancelled.all == ["first"])
    }

    @Test("cancelling the last promise of a chain cancels the work at its start")
    func cancellingChainReachesWork() async {
        // Given
        let cancelled = Recorder<String>()
        let (work, seal) = Promise<Int>.pending()
        seal.setCancellationHandler { cancelled.append("work") }
        let chain = work.map(on: .global()) { $0 + 1 }.then(on: .global()) { Promise.value($0 * 2) }

        // When
        chain.cancel()

        // Then
        #expect(await outcome(of: chain).failure is CancellationError)
        #expect(await outcome(of: work).failure is CancellationError)
        #expect(cancelled.all == ["work"])
    }

    @Test("cancelling a chain cancels the promise that then is waiting on")
    func cancellingChainReachesAdoptedPromise() async {
        // Given
        let cancelled = Recorder<String>()
        let (inner, innerSeal) = Promise<Int>.pending()
        innerSeal.setCancellationHandler { cancelled.append("inner") }
        // Inline, so that `then` ran its handler and adopted `inner` before it returned.
        let chain = Promise.value(1).then(on: .inline) { _ in inner }

        // When
        chain.cancel()

        // Then
        #expect(await outcome(of: inner).failure is CancellationError)
        #expect(cancelled.all == ["inner"])
    }

    @Test("cancelling a promise made from an async closure cancels its task")
    func cancellingCancelsTask() async {
        // Given
        let (sawCancellation, sawCancellationSeal) = Promise<Void>.pending()
        let (started, startedSeal) = Promise<Void>.pending()
        let promise = Promise<Int> {
            startedSeal.fulfill()
            // Long-running work that only the cancellation ends. The task's cancellation is seen
            // in its handler, which runs on the cancelling thread: not after the sleep wakes on the
            // cooperative pool, which the suite's other tests may keep busy for longer than the
            // bound (under ThreadSanitizer, 2 threads on this machine).
            return try await withTaskCancellationHandler {
                try await Task.sleep(nanoseconds: 3_600_000_000_000)
                return 0
            } onCancel: {
                sawCancellationSeal.fulfill()
            }
        }
        try? await started.value

        // When
        promise.cancel()

        // Then
        #expect(await outcome(of: promise).failure is CancellationError)
        #expect(await outcome(of: sawCancellation.timeout(seconds: 60)).failure == nil)
    }

    @Test("a cancelled task awaiting a promise throws CancellationError and cancels that work")
    func cancelledAwaitCancelsWork() async {
        // Given
        let cancelled = Recorder<String>()
        let (work, seal) = Promise<Int>.pending()
        seal.setCancellationHandler { cancelled.append("work") }
        let waiter = Task { try await work.value }

        // When
        waiter.cancel()

        // Then
        let result = await waiter.result
        #expect(result.failure is CancellationError)
        #expect(cancelled.all == ["work"])
        #expect(work.isCancelled)
    }

    @Test("a cancelled task stops waiting on a shared promise but leaves it pending for others")
    func cancelledAwaitLeavesSharedPromise() async throws {
        // Given
        let (shared, seal) = Promise<Int>.pending()
        let waiter = Task { try await shared.value }

        // When
        waiter.cancel()
        let result = await waiter.result
        seal.fulfill(5)

        // Then
        #expect(result.failure is CancellationError)
        #expect(try await shared.value == 5)
    }
}
