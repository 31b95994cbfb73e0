import Services

/// How the user (or the app) settles an ``OfflineConflict``.
public enum OfflineResolution<Resource: OfflineResource>: Sendable {
    /// This device's change, sent again over the API's version (or the resource created again
    /// when the API deleted it).
    case mine
    /// The API's value: the change in conflict is dropped; later changes of the resource still
    /// go, moved onto the API's value.
    case theirs
    /// A value made from both sides, kept here and sent with `If-Match` of the API's version (or
    /// created again when the API deleted it), in one transaction.
    case merged(Resource)
}

/// A collection's own merge rule: given the value both sides started from (`nil` when unknown),
/// this device's and the API's, the merged value, or `nil` to leave the conflict to the user.
/// Tried before the field-by-field merge when the API answers `412`.
public typealias OfflineMergeRule<Resource: OfflineResource> =
    @Sendable (_ base: Resource?, _ mine: Resource, _ theirs: Resource) -> Resource?
