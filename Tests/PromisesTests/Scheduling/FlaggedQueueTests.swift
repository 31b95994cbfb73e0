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
        // Given: a block that holds the concurrent queue until a handler runs beside it, or for
        // 300 ms. The wait is not what the test checks: the order is right whatever it lasts, and
        // a handler that is not a barrier runs beside the block at once, ends the wait and comes
        // first, so the test fails at once when the flags are lost.
        let queue = DispatchQueue(label: "FlaggedQueueTests", attributes: .concurrent)
        let order = Recorder<String>()
        let ranBeside = DispatchSemaphore(value: 0)
        queue.async {
            _ = ranBeside.wait(timeout: .now() + .milliseconds(300))
            order.append("before")
        }

        // When: a barrier handler, then a plain block
        let barrier = Promise.value(1).done(on: .queue(queue, flags: .barrier)) { _ in
            order.append("barrier")
            ranBeside.signal()
        }
        let after = Promise<Void> { seal in
            queue.async {
                order.append("after")
                seal.fulfill(())
            }
        }
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
