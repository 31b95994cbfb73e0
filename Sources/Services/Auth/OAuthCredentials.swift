public import Foundation
public import Promises

/// Credentials from an OAuth 2.0 token endpoint (RFC 6749): ``signIn(user:password:)`` makes a
/// password grant (section 4.3), an expired or refused access token is replaced through the
/// refresh token (section 6), and ``signOut()`` forgets both. The sign-in is kept by a
/// ``TokenKeeper``, never in the database; no token or password is ever printed.
///
/// A refresh is shared: every request refused with the same token waits for one refresh. A
/// refresh the endpoint refuses (`invalid_grant`), or answers with something that is not a token
/// (a page, garbage, a token without an expiry), ends the sign-in: ``account`` becomes `nil`,
/// ``signedOutReason`` says why, and requests reject with ``AuthenticationError`` until the next
/// sign-in. A refresh that cannot reach the endpoint keeps the sign-in: the request fails as
/// offline, and what waits keeps waiting.
public final class OAuthCredentials: Credentials, CustomStringConvertible, Sendable {
    private struct State {
        var grant: TokenGrant?
        var reason: String?
        /// What ``observeSignIns(_:)`` registered, by registration.
        var signInObservers: [UUID: @Sendable (String) -> Void] = [:]
    }
    private let state: Locked<State>
    private let endpoint: TokenEndpoint
    private let keeper: any TokenKeeper
    private let now: @Sendable () -> Date
    private let refreshing = InFlight<String, String>()

    /// Makes the credentials, signed in as the keeper's grant says.
    ///
    /// - Parameters:
    ///   - tokenURL: The token endpoint, such as `https://api.example.com/oauth/token`.
    ///   - clientID: The `client_id` sent with each grant, if the endpoint wants one.
    ///   - keeper: Where the sign-in is kept between launches.
    ///   - timeout: How long a token request may take, in seconds.
    ///   - now: The clock tokens expire by.
    public init(
        tokenURL: URL, clientID: String? = nil, keeper: any TokenKeeper = MemoryTokenKeeper(),
        timeout: Double = 10, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        endpoint = TokenEndpoint(url: tokenURL, clientID: clientID, timeout: timeout, now: now)
        self.keeper = keeper
        self.now = now
        state = Locked(State(grant: try? keeper.load()))
    }

    /// The account signed in, or `nil`.
    public var account: String? { state.withLock { $0.grant?.account } }

    /// Why the last sign-in ended, for a screen ("Sign in to send your 3 changes"); `nil` while
    /// signed in or never signed in.
    public var signedOutReason: String? { state.withLock { $0.reason } }

    /// Calls `signedIn` with the account after every sign-in (``signIn(user:password:)``), from the
    /// thread that signed in: for a `SyncScheduler` to send what waited (`SyncScheduler/follow(_:)`).
    ///
    /// - Parameter signedIn: Gets the account signed in.
    /// - Returns: The registration; it ends when cancelled or released.
    public func observeSignIns(_ signedIn: @escaping @Sendable (String) -> Void) -> ObservationHandle {
        let id = UUID()
        state.withLock { $0.signInObservers[id] = signedIn }
        return ObservationHandle { [weak self] in
            guard let self else { return }
            _ = state.withLock { $0.signInObservers.removeValue(forKey: id) }
        }
    }

    /// Signs in with a user's password (RFC 6749 section 4.3). The password is sent once and not
    /// kept.
    ///
    /// - Parameters:
    ///   - user: The user name.
    ///   - password: The password.
    /// - Returns: A promise fulfilled once signed in; rejected with ``AuthenticationError`` when
    ///   the endpoint refused, or with the network's error.
    public func signIn(user: String, password: String) -> Promise<Void> {
        endpoint.grant(account: user, ["grant_type": "password", "username": user, "password": password])
            .map(on: .inline) { [self] granted in
                try keep(granted)
                for observer in state.withLock({ Array($0.signInObservers.values) }) { observer(user) }
            }
    }

    /// Forgets the sign-in here and in the keeper.
    ///
    /// - Throws: Why the keeper could not forget it.
    public func signOut() throws {
        state.withLock {
            $0.grant = nil
            $0.reason = nil
        }
        try keeper.erase()
    }

    /// The access token, refreshed first when it expires within five seconds.
    ///
    /// - Returns: A promise of the token; rejected with ``AuthenticationError`` when signed out.
    public func accessToken() -> Promise<String> {
        guard let current = state.withLock({ $0.grant }) else {
            return Promise(error: signedOut)
        }
        // A token about to expire is refreshed first, rather than sent to be refused.
        guard current.expiresAt.timeIntervalSince(now()) <= 5 else { return .value(current.accessToken) }
        return refresh(replacing: current.accessToken)
    }

    /// A new access token after the API refused `token`; see ``Credentials/refresh(replacing:)``.
    ///
    /// - Parameter token: The token the API refused.
    /// - Returns: A promise of the new token.
    public func refresh(replacing token: String) -> Promise<String> {
        guard let current = state.withLock({ $0.grant }) else {
            return Promise(error: signedOut)
        }
        // Refreshed meanwhile by another request: the new token, without asking again.
        if current.accessToken != token { return .value(current.accessToken) }
        guard let refreshToken = current.refreshToken else {
            return Promise(error: end("The sign-in expired; sign in again."))
        }
        return refreshing.join(refreshToken) { [self] in
            // Under the join's lock. A refresh that settled since the check above has already
            // kept its token (or ended the sign-in) before it was forgotten: use what it left.
            guard let latest = state.withLock({ $0.grant }) else { return Promise(error: signedOut) }
            if latest.accessToken != token { return .value(latest.accessToken) }
            return endpoint.grant(
                account: current.account, ["grant_type": "refresh_token", "refresh_token": refreshToken]
            )
            .map(on: .inline) { [self] granted in
                // Kept before the shared refresh settles, so no request can see the old token
                // once the refresh is forgotten and start another.
                try keep(granted)
                return granted.accessToken
            }
            .recover(on: .inline) { [self] error -> Promise<String> in
                // Refused or not a token: the sign-in ended. Not reached: it stands, and the
                // request fails as offline.
                guard let ended = error as? AuthenticationError else { throw error }
                throw end(ended.reason)
            }
        }
    }

    /// Who is signed in; never a token.
    public var description: String {
        "OAuthCredentials(\(account.map { "signed in as \($0)" } ?? "signed out"))"
    }

    /// Why a request cannot be made while nobody is signed in: the reason the last sign-in ended,
    /// if one did.
    private var signedOut: AuthenticationError {
        AuthenticationError(signedOutReason ?? AuthenticationError.signedOut.reason)
    }

    /// Keeps `granted`, here and in the keeper.
    private func keep(_ granted: TokenGrant) throws {
        state.withLock {
            $0.grant = granted
            $0.reason = nil
        }
        try keeper.save(granted)
    }

    /// Ends the sign-in for `why`, keeping the reason for screens.
    private func end(_ why: String) -> AuthenticationError {
        state.withLock {
            $0.grant = nil
            $0.reason = why
        }
        try? keeper.erase()
        return AuthenticationError(why)
    }
}
