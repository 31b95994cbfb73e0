public import Promises
import Services

/// Several collections of a database synced as one: the rule a ``SyncScheduler`` made with
/// ``SyncScheduler/init(syncing:connectivity:clock:backoff:gathering:)`` follows, for a pull to
/// refresh or a "Sync now" button without a scheduler.
public enum SyncedCollections {
    /// Sends what waits in `collections`, one after the other in the order given (parents before
    /// the collections whose resources name them, as ``OfflineCollection/referencing(_:)`` sends
    /// best), each whatever the one before did: a child whose parent did not go waits for it.
    ///
    /// ```swift
    /// SyncedCollections.sync([projects, tasks]).done { report in
    ///     view.showSyncSummary(SyncNotice().summary(report))
    /// }
    /// ```
    ///
    /// - Parameter collections: What to send, in order.
    /// - Returns: A promise of the reports combined (``OutboxSyncReport/init(combining:)``);
    ///   rejected with the first collection's sync that failed as a whole (its file, say).
    public static func sync(_ collections: [any SyncedCollection]) -> Promise<OutboxSyncReport> {
        collections.reduce(Promise<[OutboxSyncReport]>.value([])) { earlier, collection in
            earlier.then(on: .inline) { reports in collection.sync().map(on: .inline) { reports + [$0] } }
        }
        .map(on: .inline) { OutboxSyncReport(combining: $0) }
    }
}
