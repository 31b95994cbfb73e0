package import Foundation
package import Promises

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Requests a transfer service sends for this client (``TransferSpool``), and their answers read
/// as this client reads its own.
extension APIClient {
    /// The request ``exchange(_:_:body:headers:)`` would send, as a transfer service sends it: the
    /// address resolved, JSON asked for, and the user's token when the client is signed in (its
    /// current one; a service that sends it after it expired gets a `401`, which the app reads as
    /// any `401`).
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The resource, relative to ``baseURL``.
    ///   - body: A JSON body, or `nil`.
    ///   - headers: Extra header fields, such as `Idempotency-Key`.
    /// - Returns: A promise of the request; rejected when the token cannot be had.
    package func spooled(
        _ method: HTTPMethod, _ path: String, body: Data?, headers: [String: String]
    ) -> Promise<SpooledRequest> {
        let url = url(for: path)
        var fields = headers
        fields["Accept"] = "application/json"
        if body != nil, fields["Content-Type"] == nil { fields["Content-Type"] = "application/json" }
        guard let credentials,
            BoundedTransfers.Delegate.origin(of: url) == BoundedTransfers.Delegate.origin(of: baseURL)
        else { return .value(SpooledRequest(method: method.rawValue, url: url, headers: fields)) }
        let unsigned = fields
        return credentials.accessToken().map(on: .inline) { token in
            var signed = unsigned
            signed["Authorization"] = "Bearer \(token)"
            return SpooledRequest(method: method.rawValue, url: url, headers: signed)
        }
    }

    /// What a transfer service's answer to `request` means, as ``exchange(_:_:body:headers:)``
    /// would have read the same answer: the body of a 2xx, or the same error (a `URLError` when
    /// no answer came; ``APIError/responseTooLarge(bytes:limit:)`` for a body cut at the
    /// service's limit).
    ///
    /// - Parameters:
    ///   - answer: What the service got.
    ///   - url: The address it was sent to.
    /// - Returns: The body, or the error.
    package func reading(_ answer: SpooledAnswer, at url: URL) -> Result<Data, any Error> {
        guard let status = answer.status else {
            let code = answer.failureCode.flatMap { URLError.Code(rawValue: $0) } ?? .unknown
            return .failure(URLError(code))
        }
        if answer.truncated {
            if status == 412 { return .failure(ConflictTooLarge(bytes: answer.body.count)) }
            return .failure(APIError.responseTooLarge(bytes: answer.body.count, limit: answer.body.count))
        }
        guard
            let response = HTTPURLResponse(
                url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: answer.headers)
        else { return .failure(APIError.notHTTP) }
        // Never a conditional read: the spool carries writes.
        return Self.reading(answer.body, response, conditional: false, wantsJSON: true).map(\.body)
    }
}
