import Foundation
public import Promises

/// The four verbs, with JSON bodies and answers. Each takes extra header fields: an
/// `Idempotency-Key` on a POST, an `If-Match` on a PUT or DELETE, an authorisation on any.
extension APIClient {
    /// Fetches `path` and decodes the JSON body with the client's decoder (ISO 8601 dates unless
    /// the client was given another).
    ///
    /// - Parameters:
    ///   - path: The resource, relative to ``baseURL``; escape identifiers in it with
    ///     ``pathSegment(_:)``.
    ///   - type: What the body holds.
    ///   - headers: Extra header fields. Identical GETs in flight (same path and fields) share one
    ///     request.
    /// - Returns: A promise of the decoded body.
    public func get<Response: Decodable & Sendable>(
        _ path: String, as type: Response.Type = Response.self, headers: [String: String] = [:]
    ) -> Promise<Response> {
        let decoder = makeDecoder
        return send(.get, path, body: nil, headers: headers).map(on: .inline) {
            try Self.decode(type, from: $0, with: decoder())
        }
    }

    /// Fetches `path` unless it is unchanged since the answer `validators` describe: sent with
    /// `If-None-Match` and `If-Modified-Since`, a `304 Not Modified` is ``ConditionalGet/notModified``
    /// and nothing is decoded. Without validators it is a plain GET.
    ///
    /// - Parameters:
    ///   - path: The resource, relative to ``baseURL``.
    ///   - type: What the body holds.
    ///   - validators: What the copy's answer said of its version; `nil` for none.
    ///   - headers: Extra header fields.
    /// - Returns: A promise of the resource and its validators, or that it did not change.
    public func get<Response: Decodable & Sendable>(
        _ path: String, as type: Response.Type = Response.self, ifChangedSince validators: CacheValidators?,
        headers: [String: String] = [:]
    ) -> Promise<ConditionalGet<Response>> {
        let decoder = makeDecoder
        let conditional = headers.merging(validators?.conditionalHeaders ?? [:]) { _, new in new }
        return answer(.get, path, body: nil, headers: conditional).map(on: .inline) { answer in
            if answer.status == 304 { return .notModified }
            return .changed(
                try Self.decode(type, from: answer.body, with: decoder()), validators: answer.validators)
        }
    }

    /// Sends `body` as JSON with POST and decodes the JSON answer, with the client's encoder and
    /// decoder (ISO 8601 dates and sorted keys unless the client was given others).
    ///
    /// - Parameters:
    ///   - path: The resource, relative to ``baseURL``.
    ///   - body: What to send.
    ///   - type: What the answer holds.
    ///   - headers: Extra header fields, such as an `Idempotency-Key` that lets the server tell a
    ///     repeat from a new request.
    /// - Returns: A promise of the decoded answer.
    public func post<Body: Encodable, Response: Decodable & Sendable>(
        _ path: String, body: Body, as type: Response.Type = Response.self, headers: [String: String] = [:]
    ) -> Promise<Response> {
        let (decoder, encoder) = (makeDecoder, makeEncoder)
        return firstly { send(.post, path, body: try encoder().encode(body), headers: headers) }
            .map(on: .inline) { try Self.decode(type, from: $0, with: decoder()) }
    }

    /// Sends `body` as JSON with PUT and decodes the JSON answer, with the client's encoder and
    /// decoder.
    ///
    /// - Parameters:
    ///   - path: The resource, relative to ``baseURL``.
    ///   - body: What to send.
    ///   - type: What the answer holds.
    ///   - headers: Extra header fields, such as `If-Match` with the version the change was based on.
    /// - Returns: A promise of the decoded answer.
    public func put<Body: Encodable, Response: Decodable & Sendable>(
        _ path: String, body: Body, as type: Response.Type = Response.self, headers: [String: String] = [:]
    ) -> Promise<Response> {
        let (decoder, encoder) = (makeDecoder, makeEncoder)
        return firstly { send(.put, path, body: try encoder().encode(body), headers: headers) }
            .map(on: .inline) { try Self.decode(type, from: $0, with: decoder()) }
    }

    /// The header fields of a write: its `Idempotency-Key`, and, for a change made on top of a
    /// version of the resource, `If-Match` with that version as an entity tag (RFC 9110, 13.1.1),
    /// so that the API refuses it (412) when the resource changed meanwhile.
    ///
    /// - Parameters:
    ///   - idempotencyKey: The key, the same for every attempt at this write.
    ///   - version: The version the change was made from; `nil` for none (the write is then
    ///     unconditional).
    /// - Returns: The header fields.
    public static func writeHeaders(idempotencyKey: String, basedOn version: String?) -> [String: String] {
        var headers = ["Idempotency-Key": idempotencyKey]
        if let version { headers["If-Match"] = "\"\(version)\"" }
        return headers
    }

    /// Deletes `path`, ignoring any body in the answer.
    ///
    /// - Parameters:
    ///   - path: The resource, relative to ``baseURL``.
    ///   - headers: Extra header fields, such as `If-Match` with the version the delete was based on.
    /// - Returns: A promise fulfilled once the server accepted.
    public func delete(_ path: String, headers: [String: String] = [:]) -> Promise<Void> {
        send(.delete, path, body: nil, headers: headers).asVoid()
    }
}
