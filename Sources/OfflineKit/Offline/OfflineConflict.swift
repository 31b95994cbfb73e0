import Foundation
public import Services

/// A change made here that stands against another writer's, as the resource: what a screen shows
/// so the user can keep one side or make a merged value (``OfflineCollection/resolve(id:with:)``).
///
/// It is also the error an online ``OfflineCollection/update(_:)`` or
/// ``OfflineCollection/delete(id:)`` fails with when the API answers `412 Precondition Failed`:
/// the same conflict online as offline. As a `ServiceRequestError` it is
/// `ServiceRequestError/httpStatus(_:)` 412.
public struct OfflineConflict<Resource: OfflineResource>: Error, Sendable, ServiceRequestErrorConvertible {
    /// The resource's identifier on this device.
    public let id: String
    /// This device's value; `nil` when the change is a deletion.
    public let mine: Resource?
    /// The API's value; `nil` when it was deleted there (``deletedThere``) or the API did not send
    /// it.
    public let theirs: Resource?
    /// Whether the API deleted the resource.
    public let deletedThere: Bool
    /// The value both sides started from, when this device knew it.
    public let base: Resource?
    /// The fields whose values differ between mine and theirs (`id` and `version` aside), sorted
    /// by name; empty when either side is missing. A field only one side changed is among them:
    /// ``changedOnBothSides`` are those to mark as conflicting.
    public let fields: [String]
    /// Of ``fields``, those both sides changed from ``base``, to different values: what the user
    /// must choose between; the others merge. All of ``fields`` when the base is not known.
    public let changedOnBothSides: [String]

    /// Makes a conflict.
    ///
    /// - Parameters:
    ///   - id: The resource's identifier.
    ///   - mine: This device's value, `nil` for a deletion.
    ///   - theirs: The API's value, if known.
    ///   - deletedThere: Whether the API deleted it.
    ///   - base: The value both started from.
    ///   - fields: The fields that differ.
    public init(
        id: String, mine: Resource?, theirs: Resource?, deletedThere: Bool, base: Resource?, fields: [String]
    ) {
        self.init(
            id: id, mine: mine, theirs: theirs, deletedThere: deletedThere, base: base, fields: fields,
            changedOnBothSides: fields)
    }

    /// Makes a conflict whose fields changed on both sides are known.
    init(
        id: String, mine: Resource?, theirs: Resource?, deletedThere: Bool, base: Resource?, fields: [String],
        changedOnBothSides: [String]
    ) {
        self.id = id
        self.mine = mine
        self.theirs = theirs
        self.deletedThere = deletedThere
        self.base = base
        self.fields = fields
        self.changedOnBothSides = changedOnBothSides
    }

    /// The conflict read from its JSON: bodies that do not decode as the resource are missing
    /// sides, never a failure.
    init(id: String, mine: Data?, theirs: Data?, deletedThere: Bool, base: Data?) {
        func decoded(_ json: Data?) -> Resource? {
            guard let json, var value = try? APIClient.decode(Resource.self, from: json) else { return nil }
            value.id = id
            return value
        }
        let fields = mine.flatMap { mine in theirs.map { JSONMerge.differingFields(mine, $0) } } ?? []
        let both = base.flatMap { base in
            mine.flatMap { mine in
                theirs.flatMap { JSONMerge.conflictingFields(base: base, mine: mine, theirs: $0) }
            }
        }
        self.init(
            id: id, mine: decoded(mine), theirs: decoded(theirs), deletedThere: deletedThere,
            base: decoded(base), fields: fields, changedOnBothSides: both ?? fields)
    }

    /// The conflict held by `entry`, or `nil` when it holds none.
    init?(_ entry: OutboxEntry) {
        guard case .conflicted(let theirs, let deleted) = entry.state else { return nil }
        self.init(
            id: entry.localID, mine: entry.method == .delete ? nil : entry.body, theirs: theirs,
            deletedThere: deleted, base: entry.base)
    }

    /// `ServiceRequestError/httpStatus(_:)` 412.
    public var serviceRequestError: ServiceRequestError { .httpStatus(412) }
}

extension OfflineConflict: Equatable where Resource: Equatable {}
