public import Foundation

/// What a transfer service got for a ``SpooledRequest``: the API's answer (status, header fields,
/// body), or the failure that kept one from coming (no connection, say). Written beside the
/// request, whole or not at all.
public struct SpooledAnswer: Codable, Sendable, Equatable {
    /// The HTTP status; `nil` when no answer came.
    public let status: Int?
    /// The answer's header fields, their names in lower case.
    public let headers: [String: String]
    /// The body, as far as it was kept.
    public let body: Data
    /// Whether the body was longer than the service keeps (``BackgroundTransfers``' limit): only its
    /// start is in ``body``, and the answer reads as too large.
    public let truncated: Bool
    /// When no answer came: the `URLError` code of the failure (`NSURLErrorDomain`), so the app
    /// reads it as it reads a failure of its own request.
    public let failureCode: Int?

    /// An answer the API gave.
    ///
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - headers: The header fields, any case.
    ///   - body: The body.
    ///   - truncated: Whether `body` is only the start of a longer one.
    public init(status: Int, headers: [String: String], body: Data, truncated: Bool = false) {
        self.status = status
        var lowered: [String: String] = [:]
        for (field, value) in headers { lowered[field.lowercased()] = value }
        self.headers = lowered
        self.body = body
        self.truncated = truncated
        failureCode = nil
    }

    /// No answer: the request failed with `code` before the API said anything.
    ///
    /// - Parameter code: The failure's `URLError` code.
    public init(failure code: URLError.Code) {
        status = nil
        headers = [:]
        body = Data()
        truncated = false
        failureCode = code.rawValue
    }
}
