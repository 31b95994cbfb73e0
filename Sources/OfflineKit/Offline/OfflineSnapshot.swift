public import Foundation
import Services

/// A collection as a screen shows it, read in one transaction: the values (this device's changes
/// laid over the API's copy), each one's sync state, the typed conflicts, the outbox's counts and
/// when the copy was saved.
///
/// ``OfflineCollection/list(policy:sendingFirst:showingCopy:)`` gives one;
/// ``OfflineCollection/observe(on:_:)`` gives one after every change.
public struct OfflineSnapshot<Resource: OfflineResource>: Sendable {
    /// The resources shown, in the order shown, each with its sync state.
    public let items: [OfflineItem<Resource>]
    /// How many changes wait or are held, and each changed resource's state.
    public let status: OutboxStatus
    /// Every conflict that waits for the user, in the order the changes were made: those of
    /// resources deleted here (and so not in ``items``) too.
    public let conflicts: [OfflineConflict<Resource>]
    /// When the copy was saved from a listing or an answer of the API, or, never, when the newest
    /// change was made here; `nil` when the collection holds nothing.
    public let savedAt: Date?

    /// Makes a snapshot.
    ///
    /// - Parameters:
    ///   - items: The resources shown, with their states.
    ///   - status: The outbox's status.
    ///   - conflicts: The conflicts that wait.
    ///   - savedAt: When the copy was saved.
    public init(
        items: [OfflineItem<Resource>], status: OutboxStatus, conflicts: [OfflineConflict<Resource>] = [],
        savedAt: Date?
    ) {
        self.items = items
        self.status = status
        self.conflicts = conflicts
        self.savedAt = savedAt
    }

    /// The resources shown, without their states.
    public var values: [Resource] { items.map(\.value) }

    /// The conflict of resource `id`, if one waits for the user.
    ///
    /// - Parameter id: The resource's identifier.
    /// - Returns: The conflict, or `nil`.
    public func conflict(of id: String) -> OfflineConflict<Resource>? {
        conflicts.first { $0.id.isSameIdentifier(as: id) }
    }
}

extension OfflineSnapshot: Equatable where Resource: Equatable {}

extension OfflineSnapshot {
    /// The API's answer to a listing, before it is saved: every resource as the API has it.
    init(answer: [Resource]) {
        self.init(items: answer.map { OfflineItem(value: $0, state: .synced) }, status: .empty, savedAt: nil)
    }
}
