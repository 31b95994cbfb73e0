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
    /// A 2xx answer that is not the API's: a page (HTML, or anything that is not JSON), as a
    /// captive portal's sign-in page answers every request, or, for a write, a body that is not the
    /// resource the API answers with. `reason` says what came instead. Nothing was delivered.
    case notTheAPI(reason: String)
    /// The answer was a redirect (3xx) the client did not follow: a write is never redirected (its
    /// body, `Idempotency-Key` and `If-Match` would go to another address), and a read only within
    /// the API's origin. `location` is where it pointed, possibly empty.
    case redirected(status: Int, location: String)
}
