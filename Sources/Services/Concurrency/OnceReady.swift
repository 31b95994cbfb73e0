package import Promises

/// Work that runs once, when first asked for, and whose promise every later caller shares: what
/// an `OfflineCollection` does to its stored data before its first read, write or sync (bringing
/// it to the model version it declares), started by whichever comes first.
///
/// A gate made and never asked for runs nothing: a collection's modifiers replace the gate of the
/// collection they start from, which then never runs.
package final class OnceReady: Sendable {
    private let start: @Sendable () -> Promise<Void>
    private let started = Locked<Promise<Void>?>(nil)

    /// - Parameter start: The work; called once, under the lock, so it must not settle its promise
    ///   before it returns (work through the database's queue never does).
    package init(_ start: @escaping @Sendable () -> Promise<Void>) {
        self.start = start
    }

    /// The work's promise, started now if nothing asked before.
    func promise() -> Promise<Void> {
        started.withLock { started in
            if let started { return started }
            let work = start()
            started = work
            return work
        }
    }
}
