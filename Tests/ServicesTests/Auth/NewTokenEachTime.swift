import Promises
import Services

/// A sign-in for tests whose first token is `t0` and whose refreshes hand out `t1`, `t2`, ...,
/// counting them: what a token endpoint that issues a new token at each refresh looks like to a
/// client.
final class NewTokenEachTime: Credentials {
    let refreshes = Locked(0)
    var account: String? { "amy" }
    func accessToken() -> Promise<String> { .value(refreshes.withLock { "t\($0)" }) }
    func refresh(replacing token: String) -> Promise<String> {
        .value(
            refreshes.withLock {
                $0 += 1
                return "t\($0)"
            })
    }
}
