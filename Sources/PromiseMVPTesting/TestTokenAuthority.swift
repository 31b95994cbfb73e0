import Foundation

/// An API that wants signed-in users, for tests: an OAuth 2.0 token endpoint (`POST /oauth/token`,
/// password and refresh-token grants, RFC 6749) in front of any responder, which only answers
/// requests carrying a bearer token it granted and that has not expired (RFC 6750); any other
/// gets `401` with `WWW-Authenticate: Bearer error="invalid_token"`. Each user has data of their
/// own: `api` is asked for the responder of the user a request comes from.
///
/// ```swift
/// let notes = ["amy": TestResourceAPI(collection: "notes"), "bob": TestResourceAPI(collection: "notes")]
/// let authority = TestTokenAuthority(users: ["amy": "apple", "bob": "battery"]) { notes[$0]?.respond }
/// let server = try TestHTTPServer(responder: authority.respond)
/// ```
public final class TestTokenAuthority: @unchecked Sendable {
    // `@unchecked Sendable` is sound: every stored `var` is only read or written while holding
    // `lock`; the `let`s are `Sendable` values or `@Sendable` closures.
    private let lock = NSLock()
    private var passwords: [String: String]
    private var accessTokens: [String: String] = [:]
    private var refreshTokens: [String: String] = [:]
    private var refreshCount = 0
    private var grantCount = 0
    private var refusedCount = 0
    private var seen: [String] = []
    private var tokenReply: TestHTTPServer.Reply?
    private var refusingAll = false
    private var rotating = false
    private let lifetime: Int
    private let api: @Sendable (String) -> (@Sendable (TestHTTPServer.Request) -> TestHTTPServer.Reply)?

    /// Makes the authority.
    ///
    /// - Parameters:
    ///   - users: Each user's password.
    ///   - lifetime: The `expires_in` of each access token, in seconds.
    ///   - api: The responder of each user's data; `nil` answers `404`.
    public init(
        users: [String: String], lifetime: Int = 3600,
        api: @escaping @Sendable (String) -> (@Sendable (TestHTTPServer.Request) -> TestHTTPServer.Reply)?
    ) {
        passwords = users
        self.lifetime = lifetime
        self.api = api
    }

    /// How many refresh-token grants were answered with a token.
    public var refreshes: Int { lock.withLock { refreshCount } }
    /// How many grants of any kind were answered with a token.
    public var grants: Int { lock.withLock { grantCount } }
    /// How many requests were answered `401`.
    public var refused: Int { lock.withLock { refusedCount } }
    /// `user method path` of every request let through, in order.
    public var requests: [String] { lock.withLock { seen } }

    /// Every access token granted so far stops being accepted, as if it had expired; refresh tokens
    /// still work.
    public func expireTokens() {
        lock.withLock { accessTokens.removeAll() }
    }

    /// Changes a user's password: their refresh tokens are refused from now on (`invalid_grant`).
    ///
    /// - Parameters:
    ///   - user: The user.
    ///   - password: The new password.
    public func changePassword(of user: String, to password: String) {
        lock.withLock {
            passwords[user] = password
            refreshTokens = refreshTokens.filter { $0.value != user }
            accessTokens = accessTokens.filter { $0.value != user }
        }
    }

    /// From now on each refresh token is spent by the grant it gets, as APIs that rotate them do: a
    /// second use is refused with `invalid_grant`.
    public func rotateRefreshTokens() {
        lock.withLock { rotating = true }
    }

    /// Refuses every request with `401` from now on, even with a token it just granted: a storm
    /// that no refresh ends.
    public func refuseEveryToken() {
        lock.withLock { refusingAll = true }
    }

    /// Answers every grant with `reply` (a page, garbage, a token without expiry) instead of a
    /// token; `nil` goes back to tokens.
    ///
    /// - Parameter reply: The reply.
    public func answerGrants(with reply: TestHTTPServer.Reply?) {
        lock.withLock { tokenReply = reply }
    }

    /// Answers one request; hand it to ``TestHTTPServer/init(_:port:keepsConnectionsOpen:responder:)``.
    ///
    /// - Parameter request: The request.
    /// - Returns: The reply.
    public func respond(_ request: TestHTTPServer.Request) -> TestHTTPServer.Reply {
        if request.method == "POST", request.path == "/oauth/token" { return grant(request) }
        let user = lock.withLock { () -> String? in
            let header = request.headers["authorization"] ?? ""
            guard !refusingAll, header.hasPrefix("Bearer "),
                let user = accessTokens[String(header.dropFirst(7))]
            else {
                refusedCount += 1
                return nil
            }
            seen.append("\(user) \(request.method) \(request.path)")
            return user
        }
        guard let user else {
            return .status(
                401, body: #"{"error": "invalid_token"}"#,
                headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
        }
        return api(user)?(request) ?? .status(404, body: #"{"error": "no such user"}"#)
    }

    /// The token endpoint.
    private func grant(_ request: TestHTTPServer.Request) -> TestHTTPServer.Reply {
        let form = Self.form(request.body)
        return lock.withLock {
            if let tokenReply { return tokenReply }
            let user: String?
            switch form["grant_type"] {
            case "password":
                let name = form["username"] ?? ""
                user = passwords[name] != nil && passwords[name] == form["password"] ? name : nil
            case "refresh_token":
                user = refreshTokens[form["refresh_token"] ?? ""]
                if user != nil { refreshCount += 1 }
                if rotating { refreshTokens[form["refresh_token"] ?? ""] = nil }
            default:
                return .status(400, body: #"{"error": "unsupported_grant_type"}"#)
            }
            guard let user else { return .status(400, body: #"{"error": "invalid_grant"}"#) }
            grantCount += 1
            let (access, refresh) = (UUID().uuidString, UUID().uuidString)
            accessTokens[access] = user
            refreshTokens[refresh] = user
            return .status(
                200,
                body:
                    #"{"access_token": "\#(access)", "token_type": "Bearer", "expires_in": \#(lifetime), "refresh_token": "\#(refresh)"}"#
            )
        }
    }

    /// The fields of an `application/x-www-form-urlencoded` body.
    static func form(_ body: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }
}
