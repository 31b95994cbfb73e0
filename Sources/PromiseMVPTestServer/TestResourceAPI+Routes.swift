import Foundation
import Promises
import Services

/// The routes of ``TestResourceAPI``, and what another device changes behind the client's back.
/// Every method that touches its state is called with its lock held, or takes it.
extension TestResourceAPI {
    /// Changes resource `id` as another device would: sets `fields` and moves its version on.
    ///
    /// - Parameters:
    ///   - id: The identifier.
    ///   - fields: The text fields to set.
    public func edit(_ id: String, _ fields: [String: String]) {
        lock.withLock {
            guard let current = stored[IdentifierKey(id)], var object = Self.object(current.json) else {
                return
            }
            for (key, value) in fields { object[key] = value }
            guard let json = try? JSONSerialization.data(withJSONObject: object) else { return }
            keep(json, as: id, after: current.version)
        }
    }

    /// Changes resource `id` as another device would, through the feature's model: `change`
    /// applies to it decoded as `type`, what the API keeps of it (`accepting`) is stored, and its
    /// version moves on. Nothing happens when it is gone or does not decode as `type`.
    ///
    /// - Parameters:
    ///   - id: The identifier.
    ///   - type: The feature's model type.
    ///   - change: What the other device changed.
    public func edit<Resource: Codable>(
        _ id: String, as type: Resource.Type, _ change: (inout Resource) -> Void
    ) {
        lock.withLock {
            guard let current = stored[IdentifierKey(id)],
                var resource = try? APIClient.decode(type, from: current.json)
            else {
                return
            }
            change(&resource)
            guard let body = try? APIClient.encode(resource), let json = accepting(body) else { return }
            keep(json, as: id, after: current.version)
        }
    }

    /// Deletes resource `id` as another device would.
    ///
    /// - Parameter id: The identifier.
    public func delete(_ id: String) {
        lock.withLock { set(IdentifierKey(id), nil) }
    }

    /// The reply, and whether it changed anything.
    func apply(_ request: TestHTTPServer.Request) -> (TestHTTPServer.Reply, Bool) {
        let (path, query) = Self.split(request.path)
        let parts = path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        guard parts.first == collection else { return (Self.error(404, "not found"), false) }
        switch (request.method, parts.count) {
        case ("GET", 1) where query["since"] != nil:
            return (feed(since: query["since"] ?? ""), false)
        case ("GET", 1):
            // The collection's version: any change to any resource gives another.
            let etag = "\"\(collection)-\(revision)\""
            if request.headers["if-none-match"] == etag {
                listingsNotModified += 1
                return (.status(304, body: "", headers: ["ETag": etag, "Sync-Token": syncToken]), false)
            }
            listingsAnswered += 1
            var body = Data("[".utf8)
            for (index, id) in Self.sorted(stored.keys).enumerated() {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                body.append(stored[id]?.json ?? Data("null".utf8))
            }
            body.append(UInt8(ascii: "]"))
            return (
                .status(
                    200, body: String(decoding: body, as: UTF8.self),
                    headers: ["ETag": etag, "Sync-Token": syncToken]),
                false
            )
        case ("GET", 2):
            return (
                stored[IdentifierKey(parts[1])].map { (Self.answer(200, $0)) }
                    ?? Self.error(404, "not found"), false
            )
        case ("POST", 1):
            let id = naming(nextID)
            if let unknown = unknownReference(in: request.body) { return (Self.error(400, unknown), false) }
            guard let json = accepting(request.body), let kept = keep(json, as: id, after: nil) else {
                return (Self.error(400, "not a valid resource"), false)
            }
            nextID += 1
            return (Self.answer(201, kept), true)
        case ("PUT", 2), ("DELETE", 2):
            return write(request, id: parts[1])
        default:
            return (Self.error(405, "not allowed"), false)
        }
    }

    /// The path of a request target and its query's values.
    static func split(_ target: String) -> (path: String, query: [String: String]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, [:]) }
        var query: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let field = pair.split(separator: "=", maxSplits: 1).map {
                $0.removingPercentEncoding ?? String($0)
            }
            query[field[0]] = field.count > 1 ? field[1] : ""
        }
        return (String(target[..<mark]), query)
    }

    /// A conditional PUT or DELETE.
    private func write(_ request: TestHTTPServer.Request, id: String) -> (TestHTTPServer.Reply, Bool) {
        if request.headers["if-match"] == nil && ifMatchRequired {
            return (Self.error(428, "If-Match required"), false)
        }
        guard let current = stored[IdentifierKey(id)] else { return (Self.error(404, "not found"), false) }
        guard Self.ifMatch(request, allows: current.version) else {
            return (Self.answer(412, current), false)
        }
        if request.method == "DELETE" {
            set(IdentifierKey(id), nil)
            return (.status(204, body: ""), true)
        }
        if let unknown = unknownReference(in: request.body) { return (Self.error(400, unknown), false) }
        guard let json = accepting(request.body), let kept = keep(json, as: id, after: current.version) else {
            return (Self.error(400, "not a valid resource"), false)
        }
        return (Self.answer(200, kept), true)
    }

    /// Identifiers in the order listings give them: by their bytes, so that two that differ only
    /// in Unicode normalisation keep one order.
    static func sorted(_ keys: some Sequence<IdentifierKey>) -> [IdentifierKey] {
        keys.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
    }

    /// Stores the JSON object `json` (what `accepting` kept of a body) as resource `id`, at the
    /// version after `version` (1 when there was none).
    ///
    /// - Returns: What is kept, or `nil` (and nothing kept) when `json` is not a JSON object.
    @discardableResult
    func keep(_ json: Data, as id: String, after version: String?) -> Kept? {
        keep(json, as: id, at: String((Int(version ?? "") ?? 0) + 1))
    }

    /// Stores the JSON object `json` as resource `id` at `version`.
    ///
    /// - Returns: What is kept, or `nil` (and nothing kept) when `json` is not a JSON object.
    @discardableResult
    func keep(_ json: Data, as id: String, at version: String) -> Kept? {
        guard let stamped = StampedJSON.stamp(json, id: id, version: version) else { return nil }
        let kept = Kept(json: stamped, version: version)
        set(IdentifierKey(id), kept)
        return kept
    }

    /// Whether a request's `If-Match` allows a write over `version`: no `If-Match`, `*`, or the
    /// entity tag of that version (`"3"` and `W/"3"` are version `3`; anything else is taken as
    /// sent). For test APIs of their own.
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

    static func object(_ body: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }

    private static func answer(_ status: Int, _ kept: Kept) -> TestHTTPServer.Reply {
        .status(
            status, body: String(decoding: kept.json, as: UTF8.self), headers: ["ETag": "\"\(kept.version)\""]
        )
    }

    static func error(_ status: Int, _ message: String) -> TestHTTPServer.Reply {
        .status(status, body: #"{"error": "\#(message)"}"#)
    }
}
