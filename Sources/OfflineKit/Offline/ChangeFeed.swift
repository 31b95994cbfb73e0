public import Promises
import Services

/// How an API tells what changed in a collection since a token, so that a refresh brings only
/// that: Firestore's resume tokens, CouchDB's `_changes`, Google's sync tokens have this shape.
/// ``SyncTokenFeed`` is the package's implementation for a plain REST API; give another to
/// ``OfflineCollection/following(_:)``.
public protocol ChangeFeed<Resource>: Sendable {
    /// The resource the collection holds.
    associatedtype Resource: OfflineResource

    /// One page of what changed after `token`.
    ///
    /// - Parameter token: The token of the state the copy holds.
    /// - Returns: A promise of the page; rejected with an error `FailureClass` calls
    ///   `FailureClass/isGone` (`410 Gone`) when the API no longer knows the token, which makes
    ///   the collection list whole.
    func changes(since token: String) -> Promise<ChangeFeedPage<Resource>>
}

/// What changed after a token: resources created or changed, identifiers deleted, and the token
/// of the state they lead to.
public struct ChangeFeedPage<Resource: OfflineResource>: Sendable {
    /// The resources created or changed, as the API has them now.
    public let changes: [Resource]
    /// The identifiers of the resources deleted.
    public let deleted: [String]
    /// The token of the state after this page.
    public let next: String
    /// Whether more pages follow (asked with ``next``).
    public let more: Bool

    /// Makes a page.
    ///
    /// - Parameters:
    ///   - changes: The resources created or changed.
    ///   - deleted: The identifiers deleted.
    ///   - next: The token after this page.
    ///   - more: Whether more pages follow.
    public init(changes: [Resource], deleted: [String], next: String, more: Bool = false) {
        self.changes = changes
        self.deleted = deleted
        self.next = next
        self.more = more
    }
}
