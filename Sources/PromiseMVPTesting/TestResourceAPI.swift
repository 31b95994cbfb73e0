public import Foundation

/// A REST API for one collection of JSON resources, kept in memory, for ``TestHTTPServer``: what a
/// careful backend answers to `GET`/`POST /<collection>` and `GET`/`PUT`/`DELETE /<collection>/<id>`,
/// with versions, so that offline writes and their conflicts are tested end to end over a real
/// socket.
///
/// | it does | how |
/// | --- | --- |
/// | identifiers | a create gets `<collection>-<n>` |
/// | versions | every resource carries `"version"` (`"1"`, then one more per change) in its JSON, and `ETag: "<version>"` on single answers |
/// | conditional writes | a PUT or DELETE with `If-Match` of another version is answered `412` with the current copy; of a resource that is gone, `404`; without `If-Match`, applied (or `428` when ``requiresIfMatch``) |
/// | repeats | a write whose `Idempotency-Key` it has seen is not applied again and gets the first answer |
/// | another device | ``edit(_:_:)`` and ``delete(_:)`` change it behind the client's back |
///
/// ```swift
/// let api = TestResourceAPI(collection: "notes")
/// let server = try TestHTTPServer(responder: api.respond)
/// ```
public final class TestResourceAPI: @unchecked Sendable {
    // `@unchecked Sendable` is sound: every stored `var` is only read or written while holding
    // `lock`, and `lock` is itself thread-safe; `collection` is a `let`.
    private let lock = NSLock()
    private let collection: String
    private var stored: [String: [String: Any]] = [:]
    private var nextID = 1
    private var answered: [String: TestHTTPServer.Reply] = [:]
    private var appliedWrites: [String] = []
    private var appliedKeys: Set<String> = []
    private var unconditionalWrites = 0
    private var ifMatchRequired = false

    /// Makes the API of `collection`, holding `resources` (JSON objects with an `"id"`), each at
    /// version 1.
    ///
    /// - Parameters:
    ///   - collection: The first path segment, such as `notes`.
    ///   - resources: The resources it starts with.
    public init(collection: String, resources: [[String: String]] = []) {
        self.collection = collection
        for resource in resources {
            guard let id = resource["id"] else { continue }
            var object: [String: Any] = resource
            object["version"] = "1"
            stored[id] = object
        }
    }

    /// Whether a PUT or DELETE without `If-Match` is refused with `428 Precondition Required`.
    public var requiresIfMatch: Bool {
        get { lock.withLock { ifMatchRequired } }
        set { lock.withLock { ifMatchRequired = newValue } }
    }

    /// Every write it applied, in order, as `METHOD /path`; a repeat of a key it had seen, and a
    /// write it refused, are not listed.
    public var applied: [String] {
        lock.withLock { appliedWrites }
    }

    /// The `Idempotency-Key` of every write it applied.
    public var keysApplied: Set<String> {
        lock.withLock { appliedKeys }
    }

    /// How many updates and deletes it applied without `If-Match`: each may have overwritten a
    /// change it never showed the writer.
    public var unconditionalWritesApplied: Int {
        lock.withLock { unconditionalWrites }
    }

    /// The resource `id` as JSON, or `nil` when it has none.
    ///
    /// - Parameter id: The identifier.
    /// - Returns: The JSON object, keys sorted.
    public func resource(_ id: String) -> Data? {
        lock.withLock { stored[id].flatMap(Self.json) }
    }

    /// The text field `field` of resource `id`, or `nil`.
    ///
    /// - Parameters:
    ///   - field: The field, such as `text`.
    ///   - id: The identifier.
    /// - Returns: Its value, when it is text.
    public func field(_ field: String, of id: String) -> String? {
        lock.withLock { stored[id]?[field] as? String }
    }

    /// The identifiers it holds, sorted.
    public var ids: [String] {
        lock.withLock { stored.keys.sorted() }
    }

    /// Changes resource `id` as another device would: sets `fields` and moves its version on.
    ///
    /// - Parameters:
    ///   - id: The identifier.
    ///   - fields: The text fields to set.
    public func edit(_ id: String, _ fields: [String: String]) {
        lock.withLock {
            guard var object = stored[id] else { return }
            for (key, value) in fields { object[key] = value }
            object["version"] = Self.next(object["version"])
            stored[id] = object
        }
    }

    /// Deletes resource `id` as another device would.
    ///
    /// - Parameter id: The identifier.
    public func delete(_ id: String) {
        lock.withLock { _ = stored.removeValue(forKey: id) }
    }

    /// Answers one request; hand it to ``TestHTTPServer/init(_:port:responder:)``.
    ///
    /// - Parameter request: The request.
    /// - Returns: The reply.
    public func respond(_ request: TestHTTPServer.Request) -> TestHTTPServer.Reply {
        lock.withLock {
            let key = request.headers["idempotency-key"]
            if request.method != "GET", let key, let answer = answered[key] { return answer }
            let (reply, applied) = apply(request)
            if applied {
                appliedWrites.append("\(request.method) \(request.path)")
                if let key {
                    answered[key] = reply
                    appliedKeys.insert(key)
                }
                if request.method != "POST" && request.headers["if-match"] == nil { unconditionalWrites += 1 }
            }
            return reply
        }
    }

    /// The reply, and whether it changed anything.
    private func apply(_ request: TestHTTPServer.Request) -> (TestHTTPServer.Reply, Bool) {
        let parts = request.path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        guard parts.first == collection else { return (Self.error(404, "not found"), false) }
        switch (request.method, parts.count) {
        case ("GET", 1):
            let all = stored.keys.sorted().compactMap { stored[$0] }
            let body =
                (try? JSONSerialization.data(withJSONObject: all, options: [.sortedKeys])) ?? Data("[]".utf8)
            return (.status(200, body: String(decoding: body, as: UTF8.self)), false)
        case ("GET", 2):
            return (stored[parts[1]].map { (Self.answer(200, $0)) } ?? Self.error(404, "not found"), false)
        case ("POST", 1):
            guard var object = Self.object(request.body) else { return (Self.error(400, "not JSON"), false) }
            let id = "\(collection)-\(nextID)"
            nextID += 1
            object["id"] = id
            object["version"] = "1"
            stored[id] = object
            return (Self.answer(201, object), true)
        case ("PUT", 2), ("DELETE", 2):
            return write(request, id: parts[1])
        default:
            return (Self.error(405, "not allowed"), false)
        }
    }

    /// A conditional PUT or DELETE.
    private func write(_ request: TestHTTPServer.Request, id: String) -> (TestHTTPServer.Reply, Bool) {
        if request.headers["if-match"] == nil && ifMatchRequired {
            return (Self.error(428, "If-Match required"), false)
        }
        guard let current = stored[id] else { return (Self.error(404, "not found"), false) }
        guard Self.ifMatch(request, allows: current["version"] as? String) else {
            return (Self.answer(412, current), false)
        }
        if request.method == "DELETE" {
            stored[id] = nil
            return (.status(204, body: ""), true)
        }
        guard var object = Self.object(request.body) else { return (Self.error(400, "not JSON"), false) }
        object["id"] = id
        object["version"] = Self.next(current["version"])
        stored[id] = object
        return (Self.answer(200, object), true)
    }

    /// Whether a request's `If-Match` allows a write over `version`: no `If-Match`, `*`, or the
    /// entity tag of that version (`"3"` and `W/"3"` are version `3`; anything else is taken as
    /// sent). For test APIs of their own, such as the orders shop.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - version: The resource's current version.
    /// - Returns: Whether the write may be applied.
    public static func ifMatch(_ request: TestHTTPServer.Request, allows version: String?) -> Bool {
        guard var tag = request.headers["if-match"]?.trimmingCharacters(in: .whitespaces) else { return true }
        if tag.hasPrefix("W/") { tag.removeFirst(2) }
        if tag.count >= 2, tag.hasPrefix("\""), tag.hasSuffix("\"") {
            tag = String(tag.dropFirst().dropLast())
        }
        return tag == "*" || tag == version
    }

    private static func next(_ version: Any?) -> String {
        String((Int(version as? String ?? "") ?? 0) + 1)
    }

    private static func object(_ body: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }

    private static func json(_ object: [String: Any]) -> Data? {
        try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    private static func answer(_ status: Int, _ object: [String: Any]) -> TestHTTPServer.Reply {
        let version = object["version"] as? String ?? ""
        return .status(
            status, body: String(decoding: json(object) ?? Data(), as: UTF8.self),
            headers: ["ETag": "\"\(version)\""])
    }

    private static func error(_ status: Int, _ message: String) -> TestHTTPServer.Reply {
        .status(status, body: #"{"error": "\#(message)"}"#)
    }
}
