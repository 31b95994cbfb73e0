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
public final class TestTokenAuthority: Sendable {
    private struct State {
        var passwords: [String: String]
        var accessTokens: [String: String] = [:]
        var refreshTokens: [String: String] = [:]
        var refreshCount = 0
        var grantCount = 0
        var refusedCount = 0
        var seen: [String] = []
        var tokenReply: TestHTTPServer.Reply?
        var refusingAll = false
        var rotating = false
    }
    private let state: Locked<State>
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
        state = Locked(State(passwords: users))
        self.lifetime = lifetime
        self.api = api
    }

    /// How many refresh-token grants were answered with a token.
    public var refreshes: Int { state.withLock { $0.refreshCount } }
    /// How many grants of any kind were answered with a token.
    public var grants: Int { state.withLock { $0.grantCount } }
    /// How many requests were answered `401`.
    public var refused: Int { state.withLock { $0.refusedCount } }
    /// `user method path` of every request let through, in order.
    public var requests: [String] { state.withLock { $0.seen } }

    /// Every access token granted so far stops being accepted, as if it had expired; refresh tokens
    /// still work.
    public func expireTokens() {
        state.withLock { $0.accessTokens.removeAll() }
    }

    /// Changes a user's password: their refresh tokens are refused from now on (`invalid_grant`).
    ///
    /// - Parameters:
    ///   - user: The user.
    ///   - password: The new password.
    public func changePassword(of user: String, to password: String) {
        state.withLock { state in
            state.passwords[user] = password
            state.refreshTokens = state.refreshTokens.filter { $0.value != user }
            state.accessTokens = state.accessTokens.filter { $0.value != user }
        }
    }

    /// From now on each refresh token is spent by the grant it gets, as APIs that rotate them do: a
    /// second use is refused with `invalid_grant`.
    public func rotateRefreshTokens() {
        state.withLock { $0.rotating = true }
    }

    /// Refuses every request with `401` from now on, even with a token it just granted: a storm
    /// that no refresh ends.
    public func refuseEveryToken() {
        state.withLock { $0.refusingAll = true }
    }

    /// Answers every grant with `reply` (a page, garbage, a token without expiry) instead of a
    /// token; `nil` goes back to tokens.
    ///
    /// - Parameter reply: The reply.
    public func answerGrants(with reply: TestHTTPServer.Reply?) {
        state.withLock { $0.tokenReply = reply }
    }

    /// Answers one request; hand it to ``TestHTTPServer/init(_:port:keepsConnectionsOpen:responder:)``.
    ///
    /// - Parameter request: The request.
    /// - Returns: The reply.
    public func respond(_ request: TestHTTPServer.Request) -> TestHTTPServer.Reply {
        if request.method == "POST", request.path == "/oauth/token" { return grant(request) }
        let user = state.withLock { state -> String? in
            let header = request.headers["authorization"] ?? ""
            guard !state.refusingAll, header.hasPrefix("Bearer "),
                let user = state.accessTokens[String(header.dropFirst(7))]
            else {
                state.refusedCount += 1
                return nil
            }
            state.seen.append("\(user) \(request.method) \(request.path)")
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
        let (form, lifetime) = (Self.form(request.body), lifetime)
        return state.withLock { state in
            if let tokenReply = state.tokenReply { return tokenReply }
            let user: String?
            switch form["grant_type"] {
            case "password":
                let name = form["username"] ?? ""
                user = state.passwords[name] != nil && state.passwords[name] == form["password"] ? name : nil
            case "refresh_token":
                user = state.refreshTokens[form["refresh_token"] ?? ""]
                if user != nil { state.refreshCount += 1 }
                if state.rotating { state.refreshTokens[form["refresh_token"] ?? ""] = nil }
            default:
                return .status(400, body: #"{"error": "unsupported_grant_type"}"#)
            }
            guard let user else { return .status(400, body: #"{"error": "invalid_grant"}"#) }
            state.grantCount += 1
            let (access, refresh) = (UUID().uuidString, UUID().uuidString)
            state.accessTokens[access] = user
            state.refreshTokens[refresh] = user
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
