public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request written to a ``TransferSpool``: what a transfer service needs to send it without the
/// app, its body in a file of its own beside it.
public struct SpooledRequest: Codable, Sendable, Equatable {
    /// The HTTP method, such as `POST`.
    public let method: String
    /// The absolute address.
    public let url: URL
    /// Every header field sent, `Idempotency-Key` and `If-Match` among them; `Authorization`
    /// too when the request is made for a signed-in user (the file is its owner's only).
    public let headers: [String: String]

    /// Makes a request to spool.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: The absolute address.
    ///   - headers: Every header field to send.
    public init(method: String, url: URL, headers: [String: String]) {
        self.method = method
        self.url = url
        self.headers = headers
    }

    /// The request as `URLSession` sends it.
    var urlRequest: URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (field, value) in headers { request.setValue(value, forHTTPHeaderField: field) }
        return request
    }
}
