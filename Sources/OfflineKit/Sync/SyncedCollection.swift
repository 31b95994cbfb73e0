public import Promises
import Services

/// What a ``SyncScheduler`` sends by itself: a collection of changes kept in an ``Outbox`` and the
/// sync that sends them. Every ``OfflineCollection`` is one, whatever its resource, so one
/// scheduler can send several collections of a database, in the order given
/// (``SyncScheduler/init(syncing:connectivity:clock:backoff:gathering:)``).
public protocol SyncedCollection: Sendable {
    /// Where its changes wait; a change queued there makes the scheduler sync.
    var outbox: Outbox { get }
    /// Sends what waits.
    ///
    /// - Returns: A promise of what was sent, and what waits.
    func sync() -> Promise<OutboxSyncReport>
}

extension OfflineCollection: SyncedCollection {}
