import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// A keeper that counts the refresh leases taken through it: a lease locks the sign-in's file
/// for every process, so one taken for nothing makes the others wait for nothing.
final class LeaseCountingKeeper: TokenKeeper {
    let kept: FileTokenKeeper
    private let leases = Locked(0)

    init(_ kept: FileTokenKeeper) {
        self.kept = kept
    }

    /// How many leases were taken.
    var leasesTaken: Int { leases.withLock { $0 } }

    func load() throws -> TokenGrant? { try kept.load() }
    func save(_ grant: TokenGrant) throws { try kept.save(grant) }
    func erase() throws { try kept.erase() }

    func beginRefresh() throws -> RefreshLease {
        leases.withLock { $0 += 1 }
        return try kept.beginRefresh()
    }
}

extension SharedSignInTests {
    @Test(
        "a refused token another process already refreshed: its token is used, without a lease or a request")
    func refreshedElsewhereTakesNoLease() async throws {
        // Given: two processes signed in as amy; the first refreshes the token both had
        let subject = try subject()
        defer { subject.server.stop() }
        let first = subject.process()
        _ = await PromiseExpectations.value(of: first.signIn(user: "amy", password: "apple pie"))
        let keeper = LeaseCountingKeeper(FileTokenKeeper(url: subject.file))
        let second = OAuthCredentials(tokenURL: subject.tokenURL, keeper: keeper, timeout: 30)
        let old = await PromiseExpectations.value(of: second.accessToken())
        let new = await PromiseExpectations.value(of: first.refresh(replacing: old ?? ""))

        // When: the API refuses the old token to the second process
        let given = await PromiseExpectations.value(of: second.refresh(replacing: old ?? ""))

        // Then
        #expect(new != nil && new != old)
        #expect(given == new)
        #expect(keeper.leasesTaken == 0)
        #expect(subject.authority.refreshes == 1)
    }

    @Test(
        "a refused token replaced by a sign-in without a refresh token: the new token is used, the sign-in stands"
    )
    func replacedByAGrantWithoutRefreshToken() async throws {
        // Given: signed in; then another process keeps a grant the API gave without a refresh token
        let subject = try subject()
        defer { subject.server.stop() }
        let process = subject.process()
        _ = await PromiseExpectations.value(of: process.signIn(user: "amy", password: "apple pie"))
        let old = await PromiseExpectations.value(of: process.accessToken())
        let replacement = TokenGrant(
            account: "amy", accessToken: "from-the-other-process", expiresAt: Date().addingTimeInterval(3600),
            refreshToken: nil)
        try FileTokenKeeper(url: subject.file).save(replacement)

        // When: the API refuses the old token
        let given = await PromiseExpectations.value(of: process.refresh(replacing: old ?? ""))

        // Then
        #expect(given == "from-the-other-process")
        #expect(process.account == "amy")
        #expect(subject.authority.refreshes == 0)
    }

    @Test(
        "a refresh refused because a process that takes no lease spent the token first: its new token is used"
    )
    func refusedAfterALeaselessRefresh() async throws {
        // Given: a kept grant whose access token expired; an API that, asked to refresh it, has
        // just rotated its refresh token for another process (an older build that takes no lease),
        // which kept the new grant: it refuses the spent one
        let file = folder.file("app.sqlite.signin")
        let keeper = FileTokenKeeper(url: file)
        try keeper.save(
            TokenGrant(
                account: "amy", accessToken: "a1", expiresAt: Date(timeIntervalSince1970: 0),
                refreshToken: "r1"))
        let server = try TestHTTPServer { _ in
            try? keeper.save(
                TokenGrant(
                    account: "amy", accessToken: "a2", expiresAt: Date().addingTimeInterval(3600),
                    refreshToken: "r2"))
            return .status(400, body: #"{"error": "invalid_grant"}"#)
        }
        defer { server.stop() }
        let process = OAuthCredentials(
            tokenURL: server.baseURL.appendingPathComponent("oauth/token"), keeper: keeper, timeout: 30)

        // When
        let given = await PromiseExpectations.value(of: process.refresh(replacing: "a1"))

        // Then: the other process's token, and the sign-in stands
        #expect(given == "a2")
        #expect(process.account == "amy")
        #expect(server.requests.count == 1)
    }
}
