import Foundation
import Promises

/// The GET requests an ``APIClient`` has in flight, so that identical ones share one request.
final class InFlightRequests: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `requests` and every entry's `callers` are only read or
    // written while holding `lock`.
    private let lock = NSLock()
    private var requests: [String: Shared] = [:]

    /// One request and how many callers still wait for it.
    private final class Shared: @unchecked Sendable {
        // `@unchecked Sendable` is sound: `request` is a `let` of a `Sendable` type, and `callers`
        // is only read or written while holding the owning `InFlightRequests`'s lock.
        let request: Promise<Data>
        var callers = 0

        init(_ request: Promise<Data>) {
            self.request = request
        }
    }

    /// A promise of the answer to the request `key` names: the one in flight, or a new one that
    /// `start` sends. Cancelling the promise stops this caller waiting; the request is cancelled
    /// when no caller waits any more.
    func join(_ key: String, start: () -> Promise<Data>) -> Promise<Data> {
        let (answer, seal) = Promise<Data>.pending()
        let (shared, isNew) = lock.withLock { () -> (Shared, Bool) in
            if let shared = requests[key] {
                shared.callers += 1
                return (shared, false)
            }
            let shared = Shared(start())
            shared.callers = 1
            requests[key] = shared
            return (shared, true)
        }
        if isNew {
            // Settled: the next identical GET is a request of its own.
            _ = shared.request.tap(on: .inline) { [weak self] _ in self?.forget(key, shared) }
        }
        _ = shared.request.done(on: .inline) { seal.fulfill($0) }
            .catch(on: .inline, policy: .allErrors) { seal.reject($0) }
        seal.setCancellationHandler { [weak self] in self?.leave(key, shared) }
        return answer
    }

    /// One caller stopped waiting; the last one cancels the request.
    private func leave(_ key: String, _ shared: Shared) {
        let last = lock.withLock { () -> Bool in
            shared.callers -= 1
            guard shared.callers == 0 else { return false }
            if requests[key] === shared { requests[key] = nil }
            return true
        }
        if last { shared.request.cancel() }
    }

    private func forget(_ key: String, _ shared: Shared) {
        lock.withLock {
            if requests[key] === shared { requests[key] = nil }
        }
    }
}
