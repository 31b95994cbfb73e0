import Foundation
import Promises

/// Work in flight, by key, so that asking for the same work again joins it instead of starting it
/// twice: identical GETs share one request (``APIClient``), and a sync asked for while one runs gets
/// that one (``Outbox``).
///
/// Every caller gets a promise of its own: cancelling it stops that caller waiting, and the work
/// is cancelled once no caller waits any more. Work that settled is forgotten, so the next caller
/// starts it anew.
final class InFlight<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `running` and every entry's `callers` are only read or
    // written while `lock` is held, and `lock` is itself thread-safe.
    private let lock = NSLock()
    private var running: [Key: Entry] = [:]

    /// One piece of work and how many callers wait for it.
    private final class Entry: @unchecked Sendable {
        // `@unchecked Sendable` is sound: `work` is set once, before the entry is shared, and
        // `callers` is only read or written under the owning `InFlight`'s lock.
        let work: Promise<Value>
        var callers = 1

        init(_ work: Promise<Value>) {
            self.work = work
        }
    }

    /// A promise of the result of the work `key` names: the one in flight, or new work `start`
    /// begins.
    ///
    /// - Parameters:
    ///   - key: What makes two pieces of work the same (a GET's URL and header fields; an outbox).
    ///   - start: Begins the work; called under the lock, so it must not settle its promise before
    ///     it returns (work that goes through a queue or the network never does).
    /// - Returns: This caller's promise.
    func join(_ key: Key, start: () -> Promise<Value>) -> Promise<Value> {
        let (entry, isNew) = lock.withLock { () -> (Entry, Bool) in
            if let entry = running[key] {
                entry.callers += 1
                return (entry, false)
            }
            let entry = Entry(start())
            running[key] = entry
            return (entry, true)
        }
        if isNew {
            // Registered outside the lock: the work may have settled already.
            entry.work.whenSettled(on: .inline) { [weak self] _ in self?.forget(key, entry) }
        }
        let (answer, seal) = Promise<Value>.pending()
        seal.setCancellationHandler { [weak self] in self?.leave(key, entry) }
        entry.work.whenSettled(on: .inline, seal.resolve)
        return answer
    }

    /// One caller stopped waiting; the last one cancels the work.
    private func leave(_ key: Key, _ entry: Entry) {
        let last = lock.withLock { () -> Bool in
            entry.callers -= 1
            guard entry.callers == 0 else { return false }
            if running[key] === entry { running[key] = nil }
            return true
        }
        if last { entry.work.cancel() }
    }

    /// The work settled: the next caller starts it anew.
    private func forget(_ key: Key, _ entry: Entry) {
        lock.withLock {
            if running[key] === entry { running[key] = nil }
        }
    }
}
