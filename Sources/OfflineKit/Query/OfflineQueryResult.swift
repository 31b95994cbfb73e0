public import Foundation
import Services

/// What an ``OfflineQuery`` found: the resources with their sync states, where the next result
/// starts, and the changes waiting for the rows it shows, for a notice that speaks of them ("1
/// change in this list waits to be sent"), not of the whole collection.
public struct OfflineQueryResult<Resource: OfflineResource>: Sendable {
    /// The resources found, in the query's order, each with its sync state.
    public let items: [OfflineItem<Resource>]
    /// Where the next result starts; `nil` when this one holds the last resource found (or the
    /// query has no limit).
    public let next: OfflineQuery.Cursor?
    /// The changes made here that wait for the resources shown: how many wait, are refused, stuck,
    /// damaged or in conflict, and each one's state.
    public let status: OutboxStatus
    /// When the copy was last filled from the API; `nil` when it never was. (Unlike a snapshot's,
    /// it is not the newest change made here: a change outside the result leaves it as it was.)
    public let savedAt: Date?

    /// The resources alone.
    public var values: [Resource] { items.map(\.value) }
}

extension OfflineQueryResult: Equatable where Resource: Equatable {}
