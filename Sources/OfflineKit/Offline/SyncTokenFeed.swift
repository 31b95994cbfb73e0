public import Promises
public import Services

/// The change feed of a REST API that gives its listings a `Sync-Token` header and answers
/// `GET /<collection>?since=<token>` with `{"changes": [resources], "deleted": [ids], "next":
/// "<token>", "more": false}` (`more` true when another page follows), and `410 Gone` for a token
/// it no longer knows.
public struct SyncTokenFeed<Resource: OfflineResource>: ChangeFeed {
    let client: APIClient
    let collection: String

    /// Makes the feed of `collection` at `client`'s API.
    ///
    /// - Parameters:
    ///   - client: The API's client.
    ///   - collection: The collection's path, such as `notes`.
    public init(client: APIClient, collection: String) {
        self.client = client
        self.collection = collection
    }

    /// One page of what changed after `token`.
    ///
    /// - Parameter token: The token of the state the copy holds.
    /// - Returns: A promise of the page; a body that is not a page fails to decode.
    public func changes(since token: String) -> Promise<ChangeFeedPage<Resource>> {
        client.get("\(collection)?since=\(APIClient.queryValue(token))", as: Wire.self).map(on: .inline) {
            ChangeFeedPage(changes: $0.changes, deleted: $0.deleted, next: $0.next, more: $0.more ?? false)
        }
    }

    /// The page as the API writes it.
    private struct Wire: Decodable, Sendable {
        let changes: [Resource]
        let deleted: [String]
        let next: String
        let more: Bool?
    }
}
