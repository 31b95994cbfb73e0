import Foundation
package import Promises

/// Work in flight, by key, so that asking for the same work again joins it instead of starting it
/// twice: identical GETs share one request (``APIClient``), and a sync asked for while one runs gets
/// that one (`Outbox`).
///
/// Every caller gets a promise of its own: cancelling it stops that caller waiting, and the work
/// is cancelled once no caller waits any more. Work that settled is forgotten, so the next caller
/// starts it anew.
package final class InFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let state = Locked(State())

    /// Makes an empty set of shared works.
    package init() {}

    private struct State {
        var running: [Key: Entry] = [:]
        var made = 0
    }

    /// One piece of work, which it is (work started again under the same key is another), and
    /// how many callers wait for it.
    private struct Entry {
        let work: Promise<Value>
        let number: Int
        var callers = 1
    }

    /// A promise of the result of the work `key` names: the one in flight, or new work `start`
    /// begins.
    ///
    /// - Parameters:
    ///   - key: What makes two pieces of work the same (a GET's URL and header fields; an outbox).
    ///   - start: Begins the work; called under the lock, so it must not settle its promise before
    ///     it returns (work that goes through a queue or the network never does).
    /// - Returns: This caller's promise.
    package func join(_ key: Key, start: () -> Promise<Value>) -> Promise<Value> {
        let (entry, isNew) = state.withLock { state -> (Entry, Bool) in
            if var found = state.running[key] {
                found.callers += 1
                state.running[key] = found
                return (found, false)
            }
            state.made += 1
            let entry = Entry(work: start(), number: state.made)
            state.running[key] = entry
            return (entry, true)
        }
        if isNew {
            // Registered outside the lock: the work may have settled already.
            entry.work.whenSettled(on: .inline) { [weak self] _ in self?.forget(key, entry.number) }
        }
        let (answer, seal) = Promise<Value>.pending()
        seal.setCancellationHandler { [weak self] in self?.leave(key, entry) }
        entry.work.whenSettled(on: .inline, seal.resolve)
        return answer
    }

    /// One caller stopped waiting; the last one cancels the work. Work forgotten already has
    /// settled, and needs no cancelling.
    private func leave(_ key: Key, _ entry: Entry) {
        let last = state.withLock { state -> Bool in
            guard var running = state.running[key], running.number == entry.number else { return false }
            running.callers -= 1
            state.running[key] = running.callers == 0 ? nil : running
            return running.callers == 0
        }
        if last { entry.work.cancel() }
    }

    /// The work settled: the next caller starts it anew.
    private func forget(_ key: Key, _ number: Int) {
        state.withLock { state in
            if state.running[key]?.number == number { state.running[key] = nil }
        }
    }
}
