import Foundation
import Promises
import Services

/// The change feed: every listing answers with a `Sync-Token`; `GET /<collection>?since=<token>`
/// answers what changed after it, `{"changes": [...], "deleted": [...], "next": "...", "more":
/// false}`, a page of at most ``feedPageSize`` changes at a time; a token it no longer knows
/// (``expireTokens()``) or never gave is `410 Gone`.
extension TestResourceAPI {
    /// How many changes a page of the feed holds at most; 1,000 by default.
    public var feedPageSize: Int {
        get { lock.withLock { feedPage } }
        set { lock.withLock { feedPage = max(1, newValue) } }
    }

    /// Forgets every token given so far, as an API that keeps its change log for a while does:
    /// asking since any of them is `410 Gone`, and the client lists whole.
    public func expireTokens() {
        lock.withLock { oldestToken = revision }
    }

    /// Keeps `kept` as resource `id` (or removes it, for `nil`), and notes the change in the feed.
    func set(_ id: IdentifierKey, _ kept: Kept?) {
        stored[id] = kept
        revision += 1
        touched[id] = revision
        events.send(id: syncToken, data: #"{"\#(collection)": "\#(syncToken)"}"#)
    }

    /// The token of the current state.
    var syncToken: String { "rev-\(revision)" }

    /// The feed's answer to `since`.
    func feed(since token: String) -> TestHTTPServer.Reply {
        guard token.hasPrefix("rev-"), let since = Int(token.dropFirst(4)), since >= oldestToken,
            since <= revision
        else { return Self.error(410, "the token is not known: list again") }
        let after = touched.filter { $0.value > since }.sorted { $0.value < $1.value }
        let page = after.prefix(feedPage)
        var changes = Data("[".utf8)
        var deleted: [String] = []
        for (id, _) in page {
            if let kept = stored[id] {
                if changes.count > 1 { changes.append(UInt8(ascii: ",")) }
                changes.append(kept.json)
            } else {
                deleted.append(id.id)
            }
        }
        changes.append(UInt8(ascii: "]"))
        let more = after.count > page.count
        let next = more ? "rev-\(page.last?.value ?? since)" : syncToken
        let deletedJSON =
            (try? JSONSerialization.data(withJSONObject: deleted)).map {
                String(decoding: $0, as: UTF8.self)
            } ?? "[]"
        return .status(
            200,
            body:
                #"{"changes":\#(String(decoding: changes, as: UTF8.self)),"deleted":\#(deletedJSON),"next":"\#(next)","more":\#(more)}"#
        )
    }
}
