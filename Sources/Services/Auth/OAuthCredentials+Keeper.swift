import Foundation
import Promises

/// The credentials' side of the keeper, which several processes may share: what they keep after a
/// refresh, what they follow of another process, and how a sign-in ends.
extension OAuthCredentials {
    /// Uses `granted` from now on, and keeps it in the keeper; a keeper that cannot write it
    /// leaves it serving this process, and says why in ``keeperFailure``.
    func keepRefreshed(_ granted: TokenGrant) {
        var failure: String?
        do {
            try keeper.save(granted)
        } catch {
            failure =
                "The sign-in was renewed but could not be saved (\(error)): it serves until the app closes."
        }
        state.withLock {
            $0.grant = granted
            if failure == nil { $0.kept = granted }
            $0.reason = nil
            $0.keeperFailure = failure
        }
    }

    /// Follows what another process did to the kept sign-in since this one last read or wrote
    /// it: a refresh (its tokens are used), a sign-out (this process is signed out too), another
    /// account's sign-in (this process uses it). A keeper that cannot be read changes nothing.
    func followKeeper() {
        let loaded: TokenGrant?
        do { loaded = try keeper.load() } catch { return }
        let signedIn = state.withLock {
            state -> (account: String, observers: [@Sendable (String) -> Void])? in
            guard loaded != state.kept else { return nil }
            let before = state.grant?.account
            state.kept = loaded
            state.grant = loaded
            state.keeperFailure = nil
            state.reason = loaded == nil && before != nil ? "Signed out on this device." : nil
            guard let account = loaded?.account, account != before else { return nil }
            return (account, Array(state.signInObservers.values))
        }
        if let signedIn { for observer in signedIn.observers { observer(signedIn.account) } }
    }

    /// Ends the sign-in for `why`, keeping the reason for screens.
    func end(_ why: String) -> AuthenticationError {
        state.withLock {
            $0.grant = nil
            $0.kept = nil
            $0.reason = why
            $0.keeperFailure = nil
        }
        try? keeper.erase()
        return AuthenticationError(why)
    }
}
