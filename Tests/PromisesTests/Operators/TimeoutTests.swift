import Dispatch
import Testing

@testable import Promises

@Suite("timeout")
struct TimeoutTests {
    @Test("a promise that settles in time passes through timeout unchanged")
    func settlesInTime() async throws {
        // When
        let timed = Promise.value(1).timeout(seconds: 60)

        // Then
        #expect(try await timed.value == 1)
    }

    @Test("a promise that takes too long is rejected with timedOut")
    func timesOut() async {
        // Given
        let (never, seal) = Promise<Int>.pending()

        // When
        let timed = never.timeout(seconds: 0.01)

        // Then
        #expect(await outcome(of: timed).failure as? PromiseError == .timedOut)
        #expect(never.isPending)  // not cancellable: other waiters keep waiting
        seal.fulfill(0)
    }

    @Test("timing out cancels work that can be cancelled")
    func timeoutCancelsWork() async {
        // Given
        let cancelled = Recorder<Bool>()
        let (work, seal) = Promise<Int>.pending()
        seal.setCancellationHandler { cancelled.append(true) }

        // When
        let timed = work.timeout(seconds: 0.01)

        // Then
        #expect(await outcome(of: timed).failure as? PromiseError == .timedOut)
        #expect(await outcome(of: work).failure is CancellationError)
        #expect(cancelled.all == [true])
    }

    @Test("when the promise wins, the timer lets go of it at once")
    func winnerIsReleased() async throws {
        // Given
        weak var weakUpstream: LockedBuffer<PromiseState<[Int]>>?
        var timed: Promise<[Int]>?
        do {
            let (upstream, seal) = Promise<[Int]>.pending()
            weakUpstream = upstream.storage
            timed = upstream.timeout(seconds: 3600)

            // When
            seal.fulfill([1, 2, 3])
        }

        // Then: only the hour-long timer could still hold the upstream promise, and it does not.
        #expect(try await timed?.value == [1, 2, 3])
        #expect(weakUpstream == nil)
    }
}
