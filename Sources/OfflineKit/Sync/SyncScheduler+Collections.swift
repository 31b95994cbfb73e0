public import Foundation
import Promises
public import Services

/// One scheduler for several collections of a database.
extension SyncScheduler {
    /// Makes a scheduler that sends `collections`, one after the other in the order given (parents
    /// before the collections whose resources name them, as ``OfflineCollection/referencing(_:)``
    /// sends best), and syncs soon after a change is queued in any of them (``follow(_:)-(Outbox)``).
    ///
    /// ```swift
    /// let scheduler = SyncScheduler(syncing: [projects, tasks], connectivity: APIProbe(client: api))
    /// scheduler.start()
    /// ```
    ///
    /// - Parameters:
    ///   - collections: What it sends, in order.
    ///   - connectivity: Tells when the API can be reached; `AssumeReachable` by default.
    ///   - clock: What it waits with; the system clock by default.
    ///   - backoff: The waits after failed syncs; ``standardBackoff`` by default.
    ///   - gathering: How long it waits after a queued change, so that a burst makes one sync.
    public convenience init(
        syncing collections: [any SyncedCollection],
        connectivity: any ConnectivityMonitor = AssumeReachable(),
        clock: any SyncClock = .system, backoff: RetryPolicy = SyncScheduler.standardBackoff,
        gathering: TimeInterval = 0.2
    ) {
        self.init(connectivity: connectivity, clock: clock, backoff: backoff, gathering: gathering) {
            SyncedCollections.sync(collections)
        }
        for collection in collections { follow(collection.outbox) }
    }
}
