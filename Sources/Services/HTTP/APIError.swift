/// How an HTTP exchange failed once the server answered.
///
/// More cases may be added in a later version: a `switch` over it needs a `default`.
public enum APIError: Error, Equatable, Sendable {
    /// The status was outside 200-299; `body` is what the server said, for logs.
    case httpStatus(Int, body: String)
    /// The body could not be decoded as `type`; `reason` says what was wrong and where.
    case decoding(type: String, reason: String)
    /// The response was not an HTTP response.
    case notHTTP
    /// The body was larger than the client accepts (``APIClient/maximumResponseBytes``).
    case responseTooLarge(bytes: Int, limit: Int)
}
