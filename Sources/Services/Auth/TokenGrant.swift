public import Foundation

/// What a token endpoint granted (RFC 6749 section 5.1): the access token, when it expires, and
/// the refresh token that gets the next one. Its description never shows a token.
public struct TokenGrant: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The account it was granted for.
    public let account: String
    /// The bearer token requests carry (RFC 6750).
    public let accessToken: String
    /// When ``accessToken`` stops being accepted.
    public let expiresAt: Date
    /// The token that gets a new access token, if the endpoint gave one.
    public let refreshToken: String?

    /// Makes a grant.
    ///
    /// - Parameters:
    ///   - account: The account.
    ///   - accessToken: The access token.
    ///   - expiresAt: When it expires.
    ///   - refreshToken: The refresh token, if any.
    public init(account: String, accessToken: String, expiresAt: Date, refreshToken: String?) {
        self.account = account
        self.accessToken = accessToken
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
    }

    /// The account and the expiry; never a token.
    public var description: String {
        "TokenGrant(account: \(account), expires: \(expiresAt), refreshable: \(refreshToken != nil))"
    }
}
