import Foundation
import Promises
import Services

extension Outbox {
    /// How far the outbox has grown: the newest entry, and how many may be sent. A change queued
    /// moves the first; a held change retried or resolved, the second.
    struct QueueMark: Equatable, Sendable {
        let newest: Int
        let sendable: Int

        /// Whether the outbox grew from `before` to this mark: a change queued, or one more that
        /// may be sent. Any other write (a failure counted, a change sent) is not news: waking
        /// the sync for it would retry a failing sync at once.
        func grew(since before: QueueMark) -> Bool {
            newest > before.newest || sendable > before.sendable
        }
    }

    /// Calls `queued` on `dispatcher` each time a change is queued in this outbox, or a held one
    /// may be sent again, by this process or another writing the same file; not for the changes
    /// already there when it starts.
    ///
    /// - Parameters:
    ///   - dispatcher: Where `queued` runs.
    ///   - queued: Called after each such change.
    /// - Returns: The observation; it ends when cancelled or released.
    func observeQueued(on dispatcher: any Dispatcher, _ queued: @escaping @Sendable () -> Void)
        -> ObservationHandle
    {
        let feature = feature
        let last = LastMark()
        return table.database.observe(tables: ["outbox"], on: dispatcher) { connection in
            let row = try connection.query(
                """
                SELECT coalesce(max(sequence), 0) AS newest,
                    count(CASE WHEN refusal IS NULL AND stuck = 0 AND conflict = 0 THEN 1 END) AS sendable
                FROM outbox WHERE feature = ?
                """, [.text(feature)]
            ).first
            return QueueMark(newest: try row?.int("newest") ?? 0, sendable: try row?.int("sendable") ?? 0)
        } onChange: { result in
            guard case .success(let mark) = result, let before = last.swap(mark) else { return }
            if mark.grew(since: before) { queued() }
        }
    }
}

/// The mark an observation delivered last.
private final class LastMark: Sendable {
    private let mark = Locked<Outbox.QueueMark?>(nil)

    /// Keeps `new`, and gives the one before (`nil` the first time).
    func swap(_ new: Outbox.QueueMark) -> Outbox.QueueMark? {
        mark.withLock { mark in
            defer { mark = new }
            return mark
        }
    }
}
