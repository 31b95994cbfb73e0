import CSQLite  // SQLite, on every platform: Package.swift says how
import Dispatch
import Promises

/// Group commit: writes that arrive while none of them has started share one transaction, and
/// one durable commit (one flush of the WAL), instead of one each.
///
/// Durability is unchanged: a write's promise settles only after the commit that holds it, so a
/// settled write survives a crash, and a write whose commit never happened settles as failed or
/// not at all. Each write runs in a savepoint of its own: one that throws leaves the others of its
/// group as they were. Order is kept: a write never joins a group once anything else (a read, a
/// migration, an observation) was asked of the database after that group's first write.
extension Database {
    /// One write waiting for its group: runs its body, and later settles its promise.
    struct GroupedWrite: Sendable {
        /// Runs the body in its savepoint (or, alone in its group, in the transaction itself),
        /// and gives what settles the promise once the group's commit is known, and whether the
        /// body failed.
        let run: @Sendable (Connection, _ alone: Bool) -> (Settle, failed: Bool)
        /// Rejects the promise without running the body.
        let reject: @Sendable (any Error) -> Void

        /// Settles a write's promise: with its own result, or with the error that stopped its
        /// group's commit when it had succeeded.
        typealias Settle = @Sendable (_ commitFailure: (any Error)?) -> Void
    }

    /// The groups not started yet, oldest first; whether the newest still takes writes.
    ///
    /// Invariant: each group `enqueue` appends has one call of `commitOldestGroup` scheduled on the
    /// queue, so that call always finds a group waiting. `open` may stay set once its group was
    /// taken: `enqueue` joins a group only while one is waiting.
    struct WriteGroups {
        var waiting: [[GroupedWrite]] = []
        var open = false
        /// How many groups were committed: what a test of grouping counts.
        var committed = 0
    }

    /// Adds `write` to the open group, or opens a group and asks the queue to commit it.
    func enqueue(_ write: GroupedWrite) {
        let opens = groups.withLock { groups -> Bool in
            if groups.open, !groups.waiting.isEmpty {
                groups.waiting[groups.waiting.count - 1].append(write)
                return false
            }
            groups.waiting.append([write])
            groups.open = true
            return true
        }
        if opens { queue.async { self.commitOldestGroup() } }
    }

    /// Runs `block` on the database's queue after every write asked for before, closing the open
    /// group so that no later write is committed before `block` runs.
    func submit(_ block: @escaping @Sendable () -> Void) {
        groups.withLock { $0.open = false }
        queue.async(execute: block)
    }

    /// Runs the oldest group in one transaction, commits it, then settles each write and refreshes
    /// the observed reads of what changed. On the queue.
    func commitOldestGroup() {
        // Never empty: see `WriteGroups`. Writes that arrive from now on make the next group.
        let group = groups.withLock { $0.waiting.removeFirst() }
        if let suspended = refusedWhileSuspended() {
            for write in group { write.reject(suspended) }
            return
        }
        let connection = self.connection
        // What reads or migrations may have left is not this group's.
        _ = connection.changedTables.take(totalChanges: sqlite3_total_changes(connection.handle))
        var settles: [GroupedWrite.Settle] = []
        var succeeded = 0
        do {
            try connection.executeScript("BEGIN IMMEDIATE")
        } catch {
            for write in group { write.reject(error) }
            return
        }
        for (index, write) in group.enumerated() {
            let (settle, failed) = write.run(connection, group.count == 1)
            settles.append(settle)
            if !failed { succeeded += 1 }
            // A failure SQLite answers by ending the whole transaction (a full disk, an I/O
            // error) took the group's earlier writes with it: they fail too, and the rest start a
            // transaction of their own.
            if sqlite3_get_autocommit(connection.handle) != 0 {
                let ended = DatabaseError(
                    kind: .other, message: "the transaction was ended by another write's error", path: path)
                for settle in settles { settle(ended) }
                (settles, succeeded) = ([], 0)
                do {
                    try connection.executeScript("BEGIN IMMEDIATE")
                } catch {
                    for rest in group[(index + 1)...] { rest.reject(error) }
                    return
                }
            }
        }
        var commitFailure: (any Error)?
        do {
            // Nothing succeeded (a write alone in its group, which runs without a savepoint,
            // failed): nothing of it may be kept.
            try connection.executeScript(succeeded > 0 ? "COMMIT" : "ROLLBACK")
            if succeeded > 0 { groups.withLock { $0.committed += 1 } }
        } catch {
            try? connection.executeScript("ROLLBACK")
            commitFailure = error
        }
        let changed = connection.changedTables.take(totalChanges: sqlite3_total_changes(connection.handle))
        for settle in settles { settle(commitFailure) }
        // Still on the queue, so that the next write waits for the reads it makes stale.
        if commitFailure == nil, changed?.isEmpty != true {
            for read in observers.reads(of: changed) { read.refresh(connection) }
        }
    }
}
