import Services

/// What an ``OfflineCollection`` keeps: a resource of the API, as JSON both ways, with the
/// identifier the API gives it and the version the API gives each of its states.
///
/// ```swift
/// struct Note: OfflineResource, Equatable {
///     var id: String?
///     var version: String?
///     var text: String
/// }
/// ```
public protocol OfflineResource: Codable, Sendable {
    /// The API's identifier (a local one until the API has it); `nil` before it is created.
    var id: String? { get set }
    /// The API's version of it, sent back as `If-Match` with a change; `nil` when the API sends
    /// none (then changes are sent unconditionally, and another writer's change in between is
    /// overwritten without anyone knowing).
    var version: String? { get set }
}
