import Dispatch
import Testing

@testable import Promises

/// `on: .queue(queue, flags:)`: PromiseKit's `flags:`, for a handler that must run as a barrier.
@Suite("FlaggedQueue")
struct FlaggedQueueTests {
    @Test(
        "a barrier handler on a concurrent queue waits for the blocks before it, and those after it wait for it"
    )
    func barrierHandlerRunsAlone() async {
        // Given: a block that holds the concurrent queue until released
        let queue = DispatchQueue(label: "FlaggedQueueTests", attributes: .concurrent)
        let order = Recorder<String>()
        // (a GCD thread blocked for as long as this test takes to register two more blocks: a
        // barrier waits for the blocks submitted before it, whether or not they started)
        let release = DispatchSemaphore(value: 0)
        queue.async {
            release.wait()
            order.append("before")
        }

        // When: a barrier handler, then a plain block, then the first block is released
        let barrier = Promise.value(1).done(on: .queue(queue, flags: .barrier)) { _ in order.append("barrier")
        }
        let after = Promise<Void> { seal in
            queue.async {
                order.append("after")
                seal.fulfill(())
            }
        }
        release.signal()
        _ = await outcome(of: barrier)
        _ = await outcome(of: after)

        // Then
        #expect(order.all == ["before", "barrier", "after"])
    }

    @Test("the flags and the queue are kept")
    func keepsFlags() {
        // Given
        let queue = DispatchQueue(label: "FlaggedQueueTests.keeps")

        // When
        let flagged: FlaggedQueue = .queue(queue, flags: [.barrier, .enforceQoS])

        // Then
        #expect(flagged.flags == [.barrier, .enforceQoS])
        #expect(flagged.queue === queue)
    }
}
