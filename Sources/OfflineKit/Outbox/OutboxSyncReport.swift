public import Foundation
public import Services

/// What one ``Outbox/sync(with:delivered:)`` did.
public struct OutboxSyncReport: Sendable, Equatable {
    /// The changes the API accepted (a DELETE answered 404 counts: the resource is gone).
    public var sent: [OutboxEntry]
    /// The changes the API refused during this sync, each with its reason.
    public var refused: [OutboxEntry]
    /// The changes that became stuck during this sync: failed too often (see
    /// ``Outbox/init(database:feature:retry:now:)``), now held while the others go on.
    public var stuck: [OutboxEntry]
    /// The changes that met another writer's change during this sync and could not be merged:
    /// held as conflicts until resolved.
    public var conflicted: [OutboxEntry] = []
    /// The changes that met another writer's change to other fields during this sync, were merged
    /// field by field with it, and sent merged (each as it was before the merge).
    public var merged: [OutboxEntry] = []
    /// The API's identifiers for the resources it created during this sync, by local identifier.
    public var newIDs: [String: String]
    /// How many changes still wait to be sent.
    public var waiting: Int
    /// Why the sync stopped before the end (the API could not be reached, timed out, or answered
    /// 5xx), or `nil` when it went through every waiting change.
    public var stoppedBecause: ServiceRequestError?
    /// When the change it stopped at may be sent again (the API's `Retry-After`, or the backoff
    /// after a failure); a sync before then stops there without asking. `nil` when it may go at
    /// once, or the sync did not stop.
    public var retryAt: Date?
    /// Whether another sync of the same file (another process: an app extension, say) was sending
    /// these changes, so this one stopped before sending one: they go with that one.
    public var sendingElsewhere = false
    /// The changes handed to a transfer service (`Outbox/handOff`): sent by it, their answers
    /// recorded by a later sync.
    public var handedOff: [OutboxEntry] = []
    /// The changes sent again on top of the API's copy after a 412 in this sync (merged or not):
    /// each is sent so once per sync, so that an API that keeps answering 412 ends in a conflict.
    var rebasedAfterConflict: [Int64] = []

    /// Makes a report.
    ///
    /// - Parameters:
    ///   - sent: The changes the API accepted.
    ///   - refused: The changes it refused.
    ///   - newIDs: The API's identifiers for what it created, by local identifier.
    ///   - waiting: How many still wait.
    ///   - stoppedBecause: Why it stopped early, if it did.
    ///   - stuck: The changes that became stuck.
    ///   - retryAt: When the change it stopped at may go again.
    public init(
        sent: [OutboxEntry] = [], refused: [OutboxEntry] = [], newIDs: [String: String] = [:],
        waiting: Int = 0,
        stoppedBecause: ServiceRequestError? = nil, stuck: [OutboxEntry] = [], retryAt: Date? = nil
    ) {
        self.sent = sent
        self.refused = refused
        self.stuck = stuck
        self.retryAt = retryAt
        self.newIDs = newIDs
        self.waiting = waiting
        self.stoppedBecause = stoppedBecause
    }
}
