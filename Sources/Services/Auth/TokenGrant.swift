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
    /// When it was granted, if known (grants kept by an earlier version have none): with
    /// ``expiresAt`` it gives the token's lifetime, which sets how early it is refreshed.
    public let grantedAt: Date?

    /// Makes a grant.
    ///
    /// - Parameters:
    ///   - account: The account.
    ///   - accessToken: The access token.
    ///   - expiresAt: When it expires.
    ///   - refreshToken: The refresh token, if any.
    public init(account: String, accessToken: String, expiresAt: Date, refreshToken: String?) {
        self.init(
            account: account, accessToken: accessToken, grantedAt: nil, expiresAt: expiresAt,
            refreshToken: refreshToken)
    }

    /// Makes a grant, saying when it was granted.
    ///
    /// - Parameters:
    ///   - account: The account.
    ///   - accessToken: The access token.
    ///   - grantedAt: When it was granted.
    ///   - expiresAt: When it expires.
    ///   - refreshToken: The refresh token, if any.
    public init(
        account: String, accessToken: String, grantedAt: Date?, expiresAt: Date, refreshToken: String?
    ) {
        self.account = account
        self.accessToken = accessToken
        self.grantedAt = grantedAt
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
    }

    /// How long before ``expiresAt`` the token is refreshed rather than sent to be refused: five
    /// seconds, or half its lifetime when that is shorter, so that a token that lives five seconds
    /// or less is not refreshed before every request.
    var refreshMargin: TimeInterval {
        guard let grantedAt else { return 5 }
        return min(5, max(0, expiresAt.timeIntervalSince(grantedAt)) / 2)
    }

    /// The account and the expiry; never a token.
    public var description: String {
        "TokenGrant(account: \(account), expires: \(expiresAt), refreshable: \(refreshToken != nil))"
    }
}
