import Foundation
import Promises

/// The GETs an ``APIClient`` has in flight, so that identical ones share one request.
///
/// Every caller gets a promise of its own: cancelling it stops that caller waiting, and the request
/// is cancelled once no caller waits any more. A request that settled is forgotten, so the next
/// identical GET is sent anew.
final class SharedRequests: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `inFlight` and every entry's `callers` are only read or
    // written while `lock` is held, and `lock` is itself thread-safe.
    private let lock = NSLock()
    private var inFlight: [String: Entry] = [:]

    /// One request and how many callers wait for it.
    private final class Entry: @unchecked Sendable {
        // `@unchecked Sendable` is sound: `request` is set once, before the entry is shared, and
        // `callers` is only read or written under the owning `SharedRequests`'s lock.
        let request: Promise<Data>
        var callers = 1

        init(_ request: Promise<Data>) {
            self.request = request
        }
    }

    /// A promise of the answer to the request `key` names: the one in flight, or a new one
    /// `start` sends.
    ///
    /// - Parameters:
    ///   - key: What makes two requests the same (method, URL and header fields).
    ///   - start: Sends the request; called under the lock, so it must not settle its promise
    ///     before it returns (sending over the network never does).
    /// - Returns: This caller's promise.
    func join(_ key: String, start: () -> Promise<Data>) -> Promise<Data> {
        let (entry, isNew) = lock.withLock { () -> (Entry, Bool) in
            if let entry = inFlight[key] {
                entry.callers += 1
                return (entry, false)
            }
            let entry = Entry(start())
            inFlight[key] = entry
            return (entry, true)
        }
        if isNew {
            // Registered outside the lock: the request may have settled already.
            entry.request.whenSettled { [weak self] in self?.forget(key, entry) }
        }
        let (answer, seal) = Promise<Data>.pending()
        seal.setCancellationHandler { [weak self] in self?.leave(key, entry) }
        entry.request.whenSettled(seal.resolve)
        return answer
    }

    /// One caller stopped waiting; the last one cancels the request.
    private func leave(_ key: String, _ entry: Entry) {
        let last = lock.withLock { () -> Bool in
            entry.callers -= 1
            guard entry.callers == 0 else { return false }
            if inFlight[key] === entry { inFlight[key] = nil }
            return true
        }
        if last { entry.request.cancel() }
    }

    /// The request settled: the next identical GET is sent anew.
    private func forget(_ key: String, _ entry: Entry) {
        lock.withLock {
            if inFlight[key] === entry { inFlight[key] = nil }
        }
    }
}

extension Promise {
    /// Calls `body` on whichever thread settles the promise, with how it settled; the rejection
    /// counts as handled (each caller of a shared request handles its own copy).
    fileprivate func whenSettled(_ body: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        done(on: .inline) { body(.success($0)) }
            .catch(on: .inline, policy: .allErrors) { body(.failure($0)) }
    }

    fileprivate func whenSettled(_ body: @escaping @Sendable () -> Void) {
        whenSettled { (_: Result<Value, any Error>) in body() }
    }
}
