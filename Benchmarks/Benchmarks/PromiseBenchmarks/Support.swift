import Dispatch
import Foundation
import Orders
import PromiseMVPTestServer

/// A count only touched on one serial queue, so no lock is needed: the queue is the lock.
final class QueueCounter: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `count` is only read and written by blocks running on the
    // benchmark's serial queue, which runs one block at a time.
    var count = 0
}

/// A count on an actor: the Swift concurrency baselines' serial queue.
actor ActorCounter {
    private var count = 0
    private var waiter: CheckedContinuation<Void, Never>?
    private let target: Int

    init(target: Int) {
        self.target = target
    }

    func increment() {
        count += 1
        if count == target { waiter?.resume() }
    }

    func step(_ value: Int) -> Int {
        value + 1
    }

    /// Returns once `increment()` reached the target.
    func waitForTarget() async {
        guard count < target else { return }
        await withCheckedContinuation { waiter = $0 }
    }
}

/// Waits for `semaphore` off the cooperative pool, so an async benchmark does not block a thread
/// the work it waits for may need.
func wait(for semaphore: DispatchSemaphore) async {
    await blocking { semaphore.wait() }
}

/// Runs `work`, which blocks its thread (it waits on semaphores), on a thread of its own rather
/// than the cooperative pool's, and returns once it is done.
func blocking(_ work: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            work()
            continuation.resume()
        }
    }
}

/// The orders API in memory, as `TestOrdersShop` (OrdersTesting) makes it, without its test
/// frameworks: the stores send totals computed already, so the shop keeps each body as sent.
func ordersShop(_ orders: [Order] = []) -> TestResourceAPI {
    TestResourceAPI(collection: "orders", resources: orders, naming: { "srv-\($0)" })
}
