import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// One sign-in kept in one file and used by several processes (two `OAuthCredentials` on one
/// `FileTokenKeeper` stand for two of them): a refresh, a sign-out or another account's sign-in
/// made by one is followed by the other, and only a refusal ends a sign-in.
@Suite("Shared sign-in")
struct SharedSignInTests {
    let folder = TemporaryFolder("SharedSignInTests")

    /// A token endpoint in front of nothing, the file the sign-in is kept in, and credentials on it.
    struct Subject {
        let authority: TestTokenAuthority
        let server: TestHTTPServer
        let file: URL

        var tokenURL: URL { server.baseURL.appendingPathComponent("oauth/token") }

        /// Credentials reading the file: one per "process".
        func process(now: @escaping @Sendable () -> Date = { Date() }) -> OAuthCredentials {
            OAuthCredentials(tokenURL: tokenURL, keeper: FileTokenKeeper(url: file), timeout: 30, now: now)
        }
    }

    func subject(lifetime: Int = 3600) throws -> Subject {
        let authority = TestTokenAuthority(users: ["amy": "apple pie", "bob": "battery"], lifetime: lifetime)
        {
            _ in nil
        }
        return Subject(
            authority: authority, server: try TestHTTPServer(responder: authority.respond),
            file: folder.file("app.sqlite.signin"))
    }

    @Test("a file keeper saves over a kept grant, twice: the last is kept, the file its owner's only")
    func fileKeeperSavesOverAGrant() throws {
        // Given
        let keeper = FileTokenKeeper(url: folder.file("nested/app.sqlite.signin"))
        let grants = (1...3).map {
            TokenGrant(
                account: "amy", accessToken: "a\($0)", expiresAt: Date(timeIntervalSince1970: 0),
                refreshToken: "r\($0)")
        }

        // When
        for grant in grants { try keeper.save(grant) }

        // Then
        #expect(try keeper.load() == grants[2])
        let attributes = try FileManager.default.attributesOfItem(atPath: keeper.url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let beside = try FileManager.default.contentsOfDirectory(
            atPath: keeper.url.deletingLastPathComponent().path)
        #expect(beside == ["app.sqlite.signin"])
    }

    @Test("a refresh through a file keeper keeps the user signed in, and the next launch uses its tokens")
    func refreshThroughTheFileKeepsTheSignIn() async throws {
        // Given: signed in, every access token then expired at the API
        let subject = try subject()
        defer { subject.server.stop() }
        let process = subject.process()
        _ = await PromiseExpectations.value(of: process.signIn(user: "amy", password: "apple pie"))
        let first = await PromiseExpectations.value(of: process.accessToken())
        subject.authority.expireTokens()

        // When: two refreshes in a row, each saving over the kept grant
        let second = await PromiseExpectations.value(of: process.refresh(replacing: first ?? ""))
        subject.authority.expireTokens()
        let third = await PromiseExpectations.value(of: process.refresh(replacing: second ?? ""))

        // Then
        #expect(subject.authority.refreshes == 2)
        #expect(third != nil && third != second && second != first)
        let relaunched = subject.process()
        #expect(relaunched.account == "amy")
        #expect(await PromiseExpectations.value(of: relaunched.accessToken()) == third)
    }

    @Test(
        "a token endpoint failing or busy keeps the sign-in: the request waits as 'later'",
        arguments: [
            TestHTTPServer.Reply.status(500, body: #"{"error": "boom"}"#),
            .status(503, body: "{}", headers: ["Retry-After": "30"]),
            .status(429, body: "{}", headers: ["Retry-After": "30"]),
        ])
    func serviceOutageKeepsTheSignIn(_ reply: TestHTTPServer.Reply) async throws {
        // Given: signed in, the token expired
        let subject = try subject()
        defer { subject.server.stop() }
        let process = subject.process()
        _ = await PromiseExpectations.value(of: process.signIn(user: "amy", password: "apple pie"))
        let token = await PromiseExpectations.value(of: process.accessToken()) ?? ""
        subject.authority.answerGrants(with: reply)

        // When
        let error = await PromiseExpectations.error(of: process.refresh(replacing: token))

        // Then
        #expect(!(error is AuthenticationError), "\(String(describing: error))")
        #expect(error.map { FailureClass($0).kind } == .later)
        #expect(process.account == "amy" && process.signedOutReason == nil)
        #expect(try FileTokenKeeper(url: subject.file).load()?.account == "amy")
    }

    @Test("only a refusal ends the sign-in: invalid_grant signs out, saying why")
    func refusalEndsTheSignIn() async throws {
        // Given
        let subject = try subject()
        defer { subject.server.stop() }
        let process = subject.process()
        _ = await PromiseExpectations.value(of: process.signIn(user: "amy", password: "apple pie"))
        let token = await PromiseExpectations.value(of: process.accessToken()) ?? ""
        subject.authority.changePassword(of: "amy", to: "new pie")

        // When
        let error = await PromiseExpectations.error(of: process.refresh(replacing: token))

        // Then
        #expect(error is AuthenticationError)
        #expect(process.account == nil && process.signedOutReason != nil)
        #expect(!FileManager.default.fileExists(atPath: subject.file.path))
    }

    @Test("with refresh tokens rotated, two processes refresh one after the other: neither is signed out")
    func rotationAcrossTwoProcesses() async throws {
        // Given: two processes started on one sign-in, the API rotating refresh tokens
        let subject = try subject()
        defer { subject.server.stop() }
        let listing = subject.process()
        _ = await PromiseExpectations.value(of: listing.signIn(user: "amy", password: "apple pie"))
        let watch = subject.process()
        let token = await PromiseExpectations.value(of: watch.accessToken()) ?? ""
        subject.authority.rotateRefreshTokens()
        subject.authority.expireTokens()

        // When: one refreshes, then the other, each with the token it started with
        let first = await PromiseExpectations.value(of: listing.refresh(replacing: token))
        let second = await PromiseExpectations.value(of: watch.refresh(replacing: token))

        // Then: one refresh at the API; the second process uses its tokens, asking nothing
        #expect(first != nil && second == first)
        #expect(subject.authority.refreshes == 1)
        #expect(subject.server.requests.filter { $0.hasPrefix("POST /oauth/token") }.count == 2)
        #expect(listing.account == "amy" && watch.account == "amy")
    }

    @Test("with refresh tokens rotated, two processes refreshing at once make one refresh between them")
    func rotationAtOnce() async throws {
        // Given
        let subject = try subject()
        defer { subject.server.stop() }
        let first = subject.process()
        _ = await PromiseExpectations.value(of: first.signIn(user: "amy", password: "apple pie"))
        let second = subject.process()
        let token = await PromiseExpectations.value(of: second.accessToken()) ?? ""
        subject.authority.rotateRefreshTokens()
        subject.authority.expireTokens()

        // When
        let both = await PromiseExpectations.value(
            of: when(fulfilled: first.refresh(replacing: token), second.refresh(replacing: token)))

        // Then: the second waited for the first's refresh and asked nothing (sign-in, refresh)
        #expect(both?.0 != nil && both?.0 == both?.1)
        #expect(subject.authority.refreshes == 1)
        #expect(subject.server.requests.filter { $0.hasPrefix("POST /oauth/token") }.count == 2)
        #expect(first.account == "amy" && second.account == "amy")
    }

    @Test("a sign-out in one process reaches another at its next request: it sends no token of theirs")
    func signOutReachesEveryProcess() async throws {
        // Given: a watch running signed in as amy
        let subject = try subject()
        defer { subject.server.stop() }
        let logout = subject.process()
        _ = await PromiseExpectations.value(of: logout.signIn(user: "amy", password: "apple pie"))
        let watch = subject.process()
        #expect(await PromiseExpectations.value(of: watch.accessToken()) != nil)

        // When
        try logout.signOut()

        // Then
        let error = await PromiseExpectations.error(of: watch.accessToken())
        #expect(error is AuthenticationError)
        #expect(watch.account == nil)
        #expect(watch.signedOutReason == "Signed out on this device.")
        // and a process that never signed in has no sign-out to explain
        #expect(subject.process().signedOutReason == nil)
    }

    @Test(
        "signing in as bob over amy's sign-in replaces it, in this process and the others; a refresh is no sign-in"
    )
    func anotherAccountOverASignIn() async throws {
        // Given
        let subject = try subject()
        defer { subject.server.stop() }
        let login = subject.process()
        _ = await PromiseExpectations.value(of: login.signIn(user: "amy", password: "apple pie"))
        let watch = subject.process()
        let signedIn = SignIns()
        let observation = watch.observeSignIns { signedIn.add($0) }
        defer { observation.cancel() }
        // and amy's token refreshed by the other process, which the watch follows: not a sign-in
        let first = await PromiseExpectations.value(of: login.accessToken()) ?? ""
        subject.authority.expireTokens()
        _ = await PromiseExpectations.value(of: login.refresh(replacing: first))
        _ = await PromiseExpectations.value(of: watch.accessToken())

        // When
        _ = await PromiseExpectations.value(of: login.signIn(user: "bob", password: "battery"))

        // Then
        #expect(login.account == "bob")
        #expect(watch.account == "bob" && watch.signedOutReason == nil)
        #expect(signedIn.all == ["bob"])
        #expect(try FileTokenKeeper(url: subject.file).load()?.account == "bob")
    }

    @Test("a refresh whose grant cannot be kept serves this process and says why; the sign-in stands")
    func unkeptRefreshIsNotASignOut() async throws {
        // Given: signed in, then the keeper unable to write
        let subject = try subject()
        defer { subject.server.stop() }
        let keeper = FailingKeeper()
        let process = OAuthCredentials(tokenURL: subject.tokenURL, keeper: keeper, timeout: 30)
        _ = await PromiseExpectations.value(of: process.signIn(user: "amy", password: "apple pie"))
        let token = await PromiseExpectations.value(of: process.accessToken()) ?? ""
        keeper.failing.withLock { $0 = true }
        subject.authority.expireTokens()

        // When
        let renewed = await PromiseExpectations.value(of: process.refresh(replacing: token))
        let next = await PromiseExpectations.value(of: process.accessToken())

        // Then
        #expect(renewed != nil && renewed != token && next == renewed)
        #expect(process.account == "amy" && process.signedOutReason == nil)
        #expect(process.keeperFailure?.contains("the disk is full") == true)
        #expect(keeper.kept.withLock { $0 }?.accessToken == token)
    }

    @Test("a token that lives 4 s is refreshed in its last 2 s, not before every request")
    func shortLivedTokens() async throws {
        // Given: tokens of 4 s, on a clock the test moves
        let subject = try subject(lifetime: 4)
        defer { subject.server.stop() }
        let clock = Locked(Date(timeIntervalSince1970: 1_000_000))
        let process = subject.process(now: { clock.withLock { $0 } })
        _ = await PromiseExpectations.value(of: process.signIn(user: "amy", password: "apple pie"))

        // When
        let fresh = await PromiseExpectations.value(of: process.accessToken())
        clock.withLock { $0 += 1.5 }
        let stillFresh = await PromiseExpectations.value(of: process.accessToken())
        clock.withLock { $0 += 1 }
        let renewed = await PromiseExpectations.value(of: process.accessToken())

        // Then
        #expect(fresh != nil && stillFresh == fresh)
        #expect(renewed != nil && renewed != fresh)
        #expect(subject.authority.refreshes == 1)
    }
}

/// The accounts a sign-in observer was told of.
final class SignIns: Sendable {
    private let accounts = Locked<[String]>([])
    func add(_ account: String) { accounts.withLock { $0.append(account) } }
    var all: [String] { accounts.withLock { $0 } }
}

/// A keeper that keeps in memory until told to fail, then fails each save as a full disk would.
final class FailingKeeper: TokenKeeper {
    let kept = Locked<TokenGrant?>(nil)
    let failing = Locked(false)

    struct Full: Error, CustomStringConvertible {
        var description: String { "the disk is full" }
    }

    func load() throws -> TokenGrant? { kept.withLock { $0 } }
    func save(_ grant: TokenGrant) throws {
        if failing.withLock({ $0 }) { throw Full() }
        kept.withLock { $0 = grant }
    }
    func erase() throws { kept.withLock { $0 = nil } }
}
