public import Foundation
import Promises
import Services

/// A REST API for one collection of JSON resources, kept in memory, for ``TestHTTPServer``: what a
/// careful backend answers to `GET`/`POST /<collection>` and `GET`/`PUT`/`DELETE /<collection>/<id>`,
/// with versions, so that offline writes and their conflicts are tested end to end over a real
/// socket.
///
/// | it does | how |
/// | --- | --- |
/// | identifiers | a create gets `<collection>-<n>`, or what `naming` makes of `n` |
/// | versions | every resource carries `"version"` (`"1"`, then one more per change) in its JSON, and `ETag: "<version>"` on single answers |
/// | conditional writes | a PUT or DELETE with `If-Match` of another version is answered `412` with the current copy; of a resource that is gone, `404`; without `If-Match`, applied (or `428` when ``requiresIfMatch``) |
/// | repeats | a write whose `Idempotency-Key` it has seen is not applied again and gets the first answer |
/// | what it keeps | what `accepting` makes of a body: the place to refuse an invalid one (`400`) or fill in what the server computes |
/// | another device | ``edit(_:_:)``, ``edit(_:as:_:)`` and ``delete(_:)`` change it behind the client's back |
/// | faults | ``refuse(_:status:body:)``, ``garble(_:)``, ``loseAnswer(to:with:)``, ``flap(_:)``, ``isDown``, ``isUnreachable`` |
///
/// It counts what it applied (``writes``), so a test can check that every change arrived exactly
/// once. Each resource is kept as the JSON bytes it answers with, so a listing of thousands costs
/// a join; a write has its `id` and `version` set in its bytes, so that its numbers are kept
/// exactly as sent.
///
/// ```swift
/// let api = TestResourceAPI(collection: "notes")
/// let server = try TestHTTPServer(responder: api.respond)
/// ```
public final class TestResourceAPI: @unchecked Sendable {
    // `@unchecked Sendable` is sound: every stored `var` (here and the `Faults` it holds) is only
    // read or written while holding `lock`, and `lock` is itself thread-safe; the `let`s are
    // `Sendable` values or `@Sendable` closures.
    let lock = Locked()
    let collection: String
    let naming: @Sendable (Int) -> String
    let accepting: @Sendable (Data) -> Data?
    /// `GET /events`: after every change, an event `id: rev-N` whose data names the collection,
    /// `{"<collection>": "rev-N"}`, as an API that pushes its changes does (``TestEventSource``).
    public let events = TestEventSource()
    /// Written only through `set(_:_:)`, which keeps `revision` and `touched`.
    var stored: [IdentifierKey: Kept] = [:]
    /// Moves on with every change of `stored`: the collection's `ETag` and the feed's tokens.
    var revision = 0
    /// The revision of each resource's last change, deletions included: the change feed.
    var touched: [IdentifierKey: Int] = [:]
    /// Feed tokens older than this are no longer known (`410 Gone`).
    var oldestToken = 0
    /// How many changes a page of the feed holds at most.
    var feedPage = 1_000
    var listingsAnswered = 0
    var listingsNotModified = 0
    var nextID = 1
    var answered: [String: TestHTTPServer.Reply] = [:]
    var appliedWrites: [Write] = []
    var unconditionalWrites = 0
    var ifMatchRequired = false
    var faults = Faults()
    /// The fields a body names another resource by, each checked against the API holding it
    /// (``requiring(_:in:)``).
    var references: [Reference] = []

    /// A resource as the API keeps it: its JSON object as bytes (`id` and `version` first, then
    /// its other members as they were sent), so that a listing joins them without encoding
    /// anything again, and its version.
    struct Kept {
        var json: Data
        var version: String
    }

    /// One write the API applied.
    public struct Write: Hashable, Sendable, CustomStringConvertible {
        /// The method, such as `PUT`.
        public let method: String
        /// The path, such as `/notes/n1`.
        public let path: String
        /// Its `Idempotency-Key`, or `nil` when it was sent without one.
        public let key: String?

        /// `METHOD /path key`, the key `-` when none was sent.
        public var description: String { "\(method) \(path) \(key ?? "-")" }
    }

    /// Makes the API of `collection`, holding `resources`, each with an `"id"` and at its
    /// `"version"` or version 1.
    ///
    /// - Parameters:
    ///   - collection: The first path segment, such as `notes`.
    ///   - resources: The resources it starts with: anything that encodes as a JSON object with an
    ///     `"id"`, such as `["id": "n1", "text": "Milk"]` or a feature's model values.
    ///   - naming: The identifier of the `n`th resource created, from 1.
    ///   - accepting: What the API keeps of a body sent to create or update a resource, or `nil` to
    ///     refuse it with `400`: by default the body as sent.
    public init(
        collection: String, resources: [any Encodable] = [],
        naming: (@Sendable (Int) -> String)? = nil,
        accepting: @escaping @Sendable (Data) -> Data? = { $0 }
    ) {
        self.collection = collection
        self.naming = naming ?? { "\(collection)-\($0)" }
        self.accepting = accepting
        for resource in resources {
            guard let json = try? APIClient.encode(resource), let object = Self.object(json),
                let id = object["id"] as? String
            else { continue }
            keep(json, as: id, at: object["version"] as? String ?? "1")
        }
    }

    /// Makes the API of `collection`, holding `resources`, keeping what `accepting` makes of each
    /// body: so that a trailing closure means `accepting`, never the identifiers' `naming`.
    ///
    /// ```swift
    /// let tasks = TestResourceAPI(collection: "tasks") { body in body.isEmpty ? nil : body }
    /// ```
    ///
    /// - Parameters:
    ///   - collection: The first path segment, such as `notes`.
    ///   - resources: The resources it starts with, each encoding as a JSON object with an `"id"`.
    ///   - accepting: What the API keeps of a body sent to create or update a resource, or `nil` to
    ///     refuse it with `400`.
    public convenience init(
        collection: String, resources: [any Encodable] = [],
        accepting: @escaping @Sendable (Data) -> Data?
    ) {
        self.init(collection: collection, resources: resources, naming: nil, accepting: accepting)
    }

    /// Whether a PUT or DELETE without `If-Match` is refused with `428 Precondition Required`.
    public var requiresIfMatch: Bool {
        get { lock.withLock { ifMatchRequired } }
        set { lock.withLock { ifMatchRequired = newValue } }
    }

    /// Every write it applied, in order; a repeat of a key it had seen, and a write it refused, are
    /// not listed.
    public var writes: [Write] {
        lock.withLock { appliedWrites }
    }

    /// Every write it applied, in order, as `METHOD /path`.
    public var applied: [String] {
        writes.map { "\($0.method) \($0.path)" }
    }

    /// The `Idempotency-Key` of every write it applied.
    public var keysApplied: Set<String> {
        Set(writes.compactMap(\.key))
    }

    /// How many updates and deletes it applied without `If-Match`: each may have overwritten a
    /// change it never showed the writer.
    public var unconditionalWritesApplied: Int {
        lock.withLock { unconditionalWrites }
    }

    /// The resource `id` as JSON, or `nil` when it has none.
    ///
    /// - Parameter id: The identifier.
    /// - Returns: The JSON object: `id` and `version`, then the other members as sent.
    public func resource(_ id: String) -> Data? {
        lock.withLock { stored[IdentifierKey(id)]?.json }
    }

    /// Every resource it holds, decoded as `type` the way `APIClient` decodes answers; one that
    /// does not decode is left out.
    ///
    /// - Parameter type: The feature's model type.
    /// - Returns: The resources, in the order of their identifiers.
    public func resources<Resource: Decodable>(as type: Resource.Type) -> [Resource] {
        lock.withLock {
            Self.sorted(stored.keys).compactMap { id in
                stored[id].flatMap { try? APIClient.decode(type, from: $0.json) }
            }
        }
    }

    /// The text field `field` of resource `id`, or `nil`.
    ///
    /// - Parameters:
    ///   - field: The field, such as `text`.
    ///   - id: The identifier.
    /// - Returns: Its value, when it is text.
    public func field(_ field: String, of id: String) -> String? {
        lock.withLock { stored[IdentifierKey(id)].flatMap { Self.object($0.json)?[field] as? String } }
    }

    /// How many listings of the collection were answered whole (`200`), and how many `304 Not
    /// Modified` because the client's `If-None-Match` named the current `ETag`.
    public var listings: (full: Int, notModified: Int) {
        lock.withLock { (listingsAnswered, listingsNotModified) }
    }

    /// The identifiers it holds, sorted.
    public var ids: [String] {
        lock.withLock { Self.sorted(stored.keys).map(\.id) }
    }

    /// Answers one request; hand it to ``TestHTTPServer/init(_:port:keepsConnectionsOpen:responder:)``.
    ///
    /// - Parameter request: The request.
    /// - Returns: The reply.
    public func respond(_ request: TestHTTPServer.Request) -> TestHTTPServer.Reply {
        if request.method == "GET", Self.split(request.path).0 == "/events" { return .eventStream(events) }
        return lock.withLock {
            let (refusal, resetAfterApplying) = faults.before(request)
            if let refusal { return refusal }
            let key = request.headers["idempotency-key"]
            if request.method != "GET", let key, let answer = answered[key] { return answer }
            let (reply, applied) = apply(request)
            if applied {
                appliedWrites.append(Write(method: request.method, path: request.path, key: key))
                if let key { answered[key] = reply }
                if request.method != "POST" && request.headers["if-match"] == nil { unconditionalWrites += 1 }
            }
            return resetAfterApplying ? .reset : faults.after(request, reply: reply)
        }
    }

    /// What ``respond(_:)`` answers, as a status and a body, for
    /// ``TestHTTPServer/init(_:port:keepsConnectionsOpen:handler:)``; a reply without a status (a reset, say) is `503`.
    ///
    /// - Parameter request: The request.
    /// - Returns: The status and the body.
    public func handle(_ request: TestHTTPServer.Request) -> (status: Int, body: String) {
        guard case .status(let status, let body, _, _) = respond(request) else { return (503, "{}") }
        return (status, body)
    }
}
