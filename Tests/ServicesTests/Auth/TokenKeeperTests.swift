import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// Where a sign-in is kept between launches, and what is never kept or printed.
@Suite("Token keepers")
struct TokenKeeperTests {
    let folder = TemporaryFolder("TokenKeeperTests")

    @Test("a file keeper makes its folder, keeps the grant for its owner only, and a new launch is signed in")
    func fileKeeperKeepsTheSignIn() async throws {
        // Given
        let authority = TestTokenAuthority(users: ["amy": "apple pie"]) { _ in nil }
        let server = try TestHTTPServer(responder: authority.respond)
        defer { server.stop() }
        let file = folder.file("nested/app.sqlite.signin")
        let tokenURL = server.baseURL.appendingPathComponent("oauth/token")
        let credentials = OAuthCredentials(tokenURL: tokenURL, keeper: FileTokenKeeper(url: file))
        // When
        _ = await PromiseExpectations.value(of: credentials.signIn(user: "amy", password: "apple pie"))
        let relaunched = OAuthCredentials(tokenURL: tokenURL, keeper: FileTokenKeeper(url: file))
        // Then
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try Data(contentsOf: file).range(of: Data("apple pie".utf8)) == nil)
        #expect(relaunched.account == "amy")
        let token = await PromiseExpectations.value(of: relaunched.accessToken()) ?? ""
        #expect(!token.isEmpty)
        let kept = try FileTokenKeeper(url: file).load()
        #expect(!"\(relaunched)".contains(token) && !"\(kept as Any)".contains(token))

        // When: signed out
        try relaunched.signOut()
        // Then
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(OAuthCredentials(tokenURL: tokenURL, keeper: FileTokenKeeper(url: file)).account == nil)
    }

    @Test(
        "a token endpoint answering garbage or a token without expiry, or a portal's page, leaves it signed out, saying why",
        arguments: [
            TestHTTPServer.Reply.status(
                200, body: "<html>Sign in to the Wi-Fi</html>", contentType: "text/html"),
            .status(200, body: "{not json"),
            .status(200, body: #"{"access_token": "abc", "token_type": "Bearer"}"#),
        ])
    func badGrantsSignOut(_ reply: TestHTTPServer.Reply) async throws {
        // Given
        let authority = TestTokenAuthority(users: ["amy": "apple"]) { _ in nil }
        authority.answerGrants(with: reply)
        let server = try TestHTTPServer(responder: authority.respond)
        defer { server.stop() }
        let credentials = OAuthCredentials(tokenURL: server.baseURL.appendingPathComponent("oauth/token"))
        // When
        let error = await PromiseExpectations.error(of: credentials.signIn(user: "amy", password: "apple"))
        // Then
        // A page is a captive portal's: the endpoint was not reached (said as such); the others
        // end the sign-in.
        let said = error.map { FailureClass($0).kind }
        #expect(error is AuthenticationError || said == .offline, "\(String(describing: error))")
        #expect(credentials.account == nil)
    }

    @Test("a refresh that cannot reach the token endpoint keeps the sign-in: the request fails as offline")
    func unreachableRefreshKeepsTheSignIn() async throws {
        // Given: signed in, the token expired, the endpoint not reachable
        let keeper = MemoryTokenKeeper()
        keeper.save(
            TokenGrant(
                account: "amy", accessToken: "old", expiresAt: Date(timeIntervalSince1970: 0),
                refreshToken: "r1"))
        let down = try ClosedPort()
        defer { withExtendedLifetime(down) {} }
        let closed = down.baseURL.appendingPathComponent("oauth/token")
        let credentials = OAuthCredentials(tokenURL: closed, keeper: keeper, timeout: 30)

        // When
        let error = await PromiseExpectations.error(of: credentials.accessToken())

        // Then
        #expect(!(error is AuthenticationError))
        #expect(error.map { FailureClass($0).kind } == .offline)
        #expect(credentials.account == "amy")
        #expect(credentials.signedOutReason == nil)
    }
}
