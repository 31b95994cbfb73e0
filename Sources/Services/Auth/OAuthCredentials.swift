public import Foundation
public import Promises

/// Credentials from an OAuth 2.0 token endpoint (RFC 6749): ``signIn(user:password:)`` makes a
/// password grant (section 4.3), an expired or refused access token is replaced through the
/// refresh token (section 6), and ``signOut()`` forgets both. The sign-in is kept by a
/// ``TokenKeeper``, never in the database; no token or password is ever printed.
///
/// A refresh is shared: every request refused with the same token waits for one refresh. Only a
/// refusal ends the sign-in: a refresh the endpoint refuses (`invalid_grant`), or answers with
/// something that is not a token (a token without an expiry, say): ``account`` becomes `nil`,
/// ``signedOutReason`` says why, and requests reject with ``AuthenticationError`` until the next
/// sign-in. A refresh that cannot reach the endpoint, or that the endpoint answers with a 5xx or
/// `429`, keeps the sign-in: the request fails as offline or "later", and what waits keeps waiting.
///
/// Several processes may share one keeper (an app and its extensions, two commands): the keeper
/// is the sign-in, read again before each request, so a refresh, a sign-out or another account's
/// sign-in made elsewhere is followed at once; a refresh takes the keeper's lease
/// (``TokenKeeper/beginRefresh()``), so one process refreshes at a time and the others use its
/// tokens. A refresh whose new tokens the keeper cannot write is not a sign-out: they serve this
/// process, and ``keeperFailure`` says what could not be written.
public final class OAuthCredentials: Credentials, CustomStringConvertible, Sendable {
    struct State {
        /// The grant requests use.
        var grant: TokenGrant?
        /// What the keeper held when last read or written: a keeper that holds something else
        /// was changed by another process since.
        var kept: TokenGrant?
        var reason: String?
        /// Why the grant in use could not be written to the keeper, while it could not.
        var keeperFailure: String?
        /// What ``observeSignIns(_:)`` registered, by registration.
        var signInObservers: [UUID: @Sendable (String) -> Void] = [:]
    }
    let state: Locked<State>
    private let endpoint: TokenEndpoint
    let keeper: any TokenKeeper
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
        let kept = try? keeper.load()
        state = Locked(State(grant: kept, kept: kept))
    }

    /// The account signed in, or `nil`.
    ///
    /// Read from the keeper again each time, so that a sign-out or another account's sign-in made
    /// by another process is seen here at once.
    public var account: String? {
        followKeeper()
        return state.withLock { $0.grant?.account }
    }

    /// Why the last sign-in ended, for a screen ("Sign in to send your 3 changes"); `nil` while
    /// signed in or never signed in.
    public var signedOutReason: String? { state.withLock { $0.reason } }

    /// Why the tokens in use could not be written where the sign-in is kept (the file and the
    /// system's reason, such as a full disk), for a screen to say plainly: they serve this process
    /// until it ends, and the sign-in kept before stays in the keeper. `nil` once they are kept.
    public var keeperFailure: String? { state.withLock { $0.keeperFailure } }

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
                // Kept first: a sign-in that cannot be kept fails whole, and the one kept before
                // (another account's, say) stays as it was.
                try keeper.save(granted)
                let observers = state.withLock { state in
                    state = State(
                        grant: granted, kept: granted, signInObservers: state.signInObservers)
                    return Array(state.signInObservers.values)
                }
                for observer in observers { observer(user) }
            }
    }

    /// Forgets the sign-in here and in the keeper.
    ///
    /// - Throws: Why the keeper could not forget it.
    public func signOut() throws {
        try keeper.erase()
        state.withLock {
            $0.grant = nil
            $0.kept = nil
            $0.reason = nil
            $0.keeperFailure = nil
        }
    }

    /// The access token, refreshed first when it expires within five seconds (or half its
    /// lifetime, when that is shorter).
    ///
    /// - Returns: A promise of the token; rejected with ``AuthenticationError`` when signed out.
    public func accessToken() -> Promise<String> {
        followKeeper()
        guard let current = state.withLock({ $0.grant }) else {
            return Promise(error: signedOut)
        }
        // A token about to expire is refreshed first, rather than sent to be refused.
        guard current.expiresAt.timeIntervalSince(now()) <= current.refreshMargin else {
            return .value(current.accessToken)
        }
        return refresh(replacing: current.accessToken)
    }

    /// A new access token after the API refused `token`; see ``Credentials/refresh(replacing:)``.
    ///
    /// - Parameter token: The token the API refused.
    /// - Returns: A promise of the new token.
    public func refresh(replacing token: String) -> Promise<String> {
        followKeeper()
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
            let keeper = keeper
            return Promise<RefreshLease> { seal in
                // The lease may wait for another process's refresh: not on the caller's thread.
                DispatchQueue.global().async {
                    do { seal.fulfill(try keeper.beginRefresh()) } catch { seal.reject(error) }
                }
            }
            .then(on: .inline) { [self] lease in
                refresh(replacing: token, holding: lease).ensure(on: .inline) { lease.end() }
            }
        }
    }

    /// The refresh itself, with the keeper's lease held: another process may have refreshed while
    /// this one waited for it, and then its tokens are used.
    private func refresh(replacing token: String, holding lease: RefreshLease) -> Promise<String> {
        followKeeper()
        guard let latest = state.withLock({ $0.grant }) else { return Promise(error: signedOut) }
        if latest.accessToken != token { return .value(latest.accessToken) }
        guard let refreshToken = latest.refreshToken else {
            return Promise(error: end("The sign-in expired; sign in again."))
        }
        return endpoint.grant(
            account: latest.account, ["grant_type": "refresh_token", "refresh_token": refreshToken]
        )
        .map(on: .inline) { [self] granted in
            // Kept before the shared refresh settles, so no request can see the old token once
            // the refresh is forgotten and start another.
            keepRefreshed(granted)
            return granted.accessToken
        }
        .recover(on: .inline) { [self] error -> Promise<String> in
            // Refused or not a token: the sign-in ended, unless another process kept a newer one
            // meanwhile (a refresh token the API rotated is refused to whoever comes second).
            // Not reached, or failing: it stands, and the request fails as offline or later.
            guard let ended = error as? AuthenticationError else { throw error }
            followKeeper()
            if let newer = state.withLock({ $0.grant }), newer.refreshToken != refreshToken {
                return .value(newer.accessToken)
            }
            throw end(ended.reason)
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
}
