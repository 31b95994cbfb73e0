public import Foundation
import Services

/// One page of a collection in an ``OfflineOrder``: its resources with their sync states, and where
/// the next page starts.
public struct OfflinePage<Resource: OfflineResource>: Sendable {
    /// The page's resources, in order, each with its sync state.
    public let items: [OfflineItem<Resource>]
    /// The outbox's status: how many changes wait in the whole collection.
    public let status: OutboxStatus
    /// Where the next page starts; `nil` on the last page.
    public let next: OfflinePageCursor?
    /// When the copy was saved (see ``OfflineSnapshot/savedAt``).
    public let savedAt: Date?

    /// The page's resources, without their states.
    public var values: [Resource] { items.map(\.value) }
}

extension OfflinePage: Equatable where Resource: Equatable {}

/// Where a page starts: just after a resource, by its value of the order's field and its
/// identifier, so that resources saved or deleted between two pages neither repeat nor skip one.
public struct OfflinePageCursor: Sendable, Hashable {
    /// The order of the pages it continues.
    public let order: OfflineOrder
    /// The last resource's value of the order's field.
    let key: SQLValue
    /// The last resource's identifier.
    let id: String
}
