import Foundation
package import Promises

/// Work by key, one piece at a time per key: each starts once the one before it under the same
/// key settled, so that two quick edits of one resource never start from the same value.
/// Different keys run side by side. A key with nothing running is forgotten.
package final class Serial<Key: Hashable & Sendable>: Sendable {
    private let state = Locked([Key: Queue]())

    /// Makes an empty set of queues.
    package init() {}

    /// The last piece of work under a key, and how many are running or waiting.
    private struct Queue {
        var last: Guarantee<Void>
        var count: Int
    }

    /// `work` started after the work before it under `key` settled.
    ///
    /// - Parameters:
    ///   - key: What two pieces of work that must not overlap share (a resource's identifier).
    ///   - work: Begins the work.
    /// - Returns: A promise of its result.
    package func run<Value: Sendable>(_ key: Key, _ work: @escaping @Sendable () -> Promise<Value>)
        -> Promise<Value>
    {
        let (promise, seal) = Promise<Value>.pending()
        let settled = Guarantee<Void> { resolve in promise.whenSettled(on: .inline) { _ in resolve(()) } }
        let before = state.withLock { queues -> Guarantee<Void>? in
            let before = queues[key]?.last
            queues[key] = Queue(last: settled, count: (queues[key]?.count ?? 0) + 1)
            return before
        }
        settled.done(on: .inline) { [weak self] in self?.finished(key) }
        guard let before else {
            work().whenSettled(on: .inline, seal.resolve)
            return promise
        }
        before.done(on: .inline) { work().whenSettled(on: .inline, seal.resolve) }
        return promise
    }

    /// How many keys have work running or waiting: what a test of forgetting counts.
    var keysHeld: Int { state.withLock { $0.count } }

    /// One piece of work under `key` settled; the key is forgotten with the last.
    private func finished(_ key: Key) {
        state.withLock { queues in
            guard var queue = queues[key] else { return }
            queue.count -= 1
            queues[key] = queue.count == 0 ? nil : queue
        }
    }
}
