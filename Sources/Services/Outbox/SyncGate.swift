import Foundation
import Promises

/// Lets one sync of an outbox run at a time: a caller who asks while one runs gets that one.
final class SyncGate: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `running` and `generation` are only read or written while
    // `lock` is held, and `lock` is itself thread-safe.
    private let lock = NSLock()
    private var running: Promise<OutboxSyncReport>?
    private var generation = 0

    /// The running sync, or a new one made by `start`.
    func join(_ start: () -> Promise<OutboxSyncReport>) -> Promise<OutboxSyncReport> {
        lock.lock()
        defer { lock.unlock() }
        // A settled sync is not joined: its clean-up below may not have run yet when its caller,
        // already answered, asks for the next one.
        if let running, running.isPending { return running }
        generation += 1
        let mine = generation
        let promise = start()
        running = promise
        // Not inline: the promise may be settled already, and this runs under the lock.
        _ = promise.finally(on: DispatchQueue.global()) { [self] in
            lock.lock()
            if generation == mine { running = nil }
            lock.unlock()
        }
        return promise
    }
}
