public import Promises

/// Who the API's requests are made for: the access token each request carries, and a new one when
/// the API refuses it. An ``APIClient`` given credentials (``APIClient/authorized(by:)``) adds
/// `Authorization: Bearer <token>` to every request to its own origin, and to no other.
///
/// ``OAuthCredentials`` is the implementation for an OAuth 2.0 token endpoint; a test or an app
/// with its own sign-in conforms to this.
public protocol Credentials: Sendable {
    /// The account signed in, such as a user name; `nil` when signed out. Requests of different
    /// accounts never share an answer.
    var account: String? { get }

    /// The token to send now, refreshed first when it has expired.
    ///
    /// - Returns: A promise of the token; rejected with ``AuthenticationError`` when nobody is
    ///   signed in, or the sign-in has ended.
    func accessToken() -> Promise<String>

    /// A new token, after the API refused `token` (a `401`): every request refused with the same
    /// token waits for the same refresh, and a token refreshed meanwhile is given at once.
    ///
    /// - Parameter token: The token the API refused.
    /// - Returns: A promise of the new token; rejected with ``AuthenticationError`` when the user
    ///   must sign in again.
    func refresh(replacing token: String) -> Promise<String>
}
