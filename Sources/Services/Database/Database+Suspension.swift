import CSQLite  // SQLite, on every platform: Package.swift says how
public import Promises

/// Suspension: a database that holds no lock on its file while the app is suspended.
///
/// iOS ends an app that is suspended while it holds a lock on a SQLite file in a shared container
/// (exception `0xDEAD10CC`): an app and its extensions that share one file must let go of it
/// before they are suspended. Every transaction here begins and ends inside one block on the
/// database's queue, so no lock is held between blocks: suspending stops new blocks from running
/// and waits for the one under way.
extension Database {
    /// Suspends the database: from now on every read and write fails with
    /// ``DatabaseError/Kind/suspended`` (those waiting on its queue too), a migration waits,
    /// observations are not read again, and no other process's commit is looked for, until
    /// ``resume()``. A statement
    /// running now is interrupted, and its write rolled back whole (its promise rejects with
    /// `suspended`; a sync in flight stops there and keeps what waits).
    ///
    /// Call it when the app is about to be suspended (the article "Sharing a database with
    /// extensions" lists where); calling it again is harmless.
    ///
    /// - Returns: A guarantee fulfilled once no block runs on the database and no lock is held.
    @discardableResult
    public func suspend() -> Guarantee<Void> {
        suspension.withLock { $0.isSuspended = true }
        // SQLite allows `sqlite3_interrupt` from any thread while the connection is open (it is
        // open as long as this object lives); it stops only statements running now.
        sqlite3_interrupt(connection.handle)
        return Guarantee { done in submit { done(()) } }
    }

    /// Lets reads and writes run again, and looks at once for what other processes committed
    /// while this one was suspended (the observed reads are read again if anything changed), after
    /// the migrations and refreshes that waited for it.
    public func resume() {
        let parked = suspension.withLock { suspension in
            suspension.isSuspended = false
            defer { suspension.parked = [] }
            return suspension.parked
        }
        for work in parked { submit(work) }
        submit { self.lookForOtherWritersNow() }
    }

    /// Whether the database is suspended (``suspend()``).
    public var isSuspended: Bool {
        suspension.withLock { $0.isSuspended }
    }

    /// The error a block gets when the database is suspended; `nil` when it may run. On the queue.
    func refusedWhileSuspended() -> DatabaseError? {
        guard isSuspended else { return nil }
        return DatabaseError(
            kind: .suspended, message: "the database is suspended: the app is not running", path: path)
    }
}

/// Whether a database is suspended, and what waits for it to be resumed.
struct Suspension: Sendable {
    var isSuspended = false
    /// Work that found the database suspended (migrations, refreshes of observed reads), run
    /// again at `resume()`.
    var parked: [@Sendable () -> Void] = []

    /// Keeps `work` for `resume()` when suspended.
    ///
    /// - Returns: Whether it was kept (and must not run now).
    mutating func park(_ work: @escaping @Sendable () -> Void) -> Bool {
        guard isSuspended else { return false }
        parked.append(work)
        return true
    }
}
