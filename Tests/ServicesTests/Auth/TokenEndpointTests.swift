import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// What the token endpoint is sent and what its answers mean: the client's id, a refused grant, an
/// answer without an expiry, and a refresh whose lease cannot be taken.
@Suite("Token endpoint")
struct TokenEndpointTests {
    let folder = TemporaryFolder("TokenEndpointTests")
    static let token = #"{"access_token":"a1","token_type":"Bearer","expires_in":3600,"refresh_token":"r1"}"#

    /// A token endpoint that grants every request and records each request's form.
    static func recordingGrants() throws -> (DeliveryRecorder<String>, TestHTTPServer) {
        let bodies = DeliveryRecorder<String>()
        let server = try TestHTTPServer { request in
            bodies.record(String(decoding: request.body, as: UTF8.self))
            return .status(200, body: Self.token)
        }
        return (bodies, server)
    }

    @Test("the client's id goes with every grant request, as a form field")
    func clientIDIsSent() async throws {
        // Given
        let (bodies, server) = try Self.recordingGrants()
        defer { server.stop() }
        let credentials = OAuthCredentials(
            tokenURL: server.baseURL.appendingPathComponent("oauth/token"), clientID: "notes-app")

        // When
        _ = await PromiseExpectations.value(of: credentials.signIn(user: "amy", password: "apple pie"))

        // Then
        let body = await bodies.next()
        #expect(body?.split(separator: "&").contains("client_id=notes-app") == true, "\(body ?? "")")
    }

    @Test("a refresh answered without a new refresh token keeps the old one for the next refresh")
    func refreshWithoutNewRefreshTokenKeepsTheOld() async throws {
        // Given: a sign-in granted a1 and r1; each refresh answers a new access token alone
        let bodies = DeliveryRecorder<String>()
        let server = try TestHTTPServer { request in
            let body = String(decoding: request.body, as: UTF8.self)
            guard body.contains("grant_type=refresh_token") else { return .status(200, body: Self.token) }
            bodies.record(body)
            return .status(
                200, body: #"{"access_token":"a\#(body.count)","token_type":"Bearer","expires_in":3600}"#)
        }
        defer { server.stop() }
        let credentials = OAuthCredentials(
            tokenURL: server.baseURL.appendingPathComponent("oauth/token"),
            keeper: FileTokenKeeper(url: folder.file("signin")))
        _ = await PromiseExpectations.value(of: credentials.signIn(user: "amy", password: "apple pie"))

        // When: refreshed twice
        let first = await PromiseExpectations.value(of: credentials.refresh(replacing: "a1"))
        _ = await PromiseExpectations.value(of: credentials.refresh(replacing: first ?? ""))

        // Then: both refreshes sent r1
        let sent = [await bodies.next(), await bodies.next()]
        #expect(sent.allSatisfy { $0?.split(separator: "&").contains("refresh_token=r1") == true }, "\(sent)")
    }

    @Test("a refused grant (invalid_grant) says the password was refused; another error names its status")
    func refusalsSayWhy() async throws {
        for (body, words) in [
            (#"{"error":"invalid_grant"}"#, "password was refused"),
            (#"{"error":"invalid_client"}"#, "refused the request (error 400)"),
        ] {
            // Given
            let server = try TestHTTPServer { _ in .status(400, body: body) }
            defer { server.stop() }
            let credentials = OAuthCredentials(tokenURL: server.baseURL.appendingPathComponent("oauth/token"))

            // When
            let error = await PromiseExpectations.error(of: credentials.signIn(user: "amy", password: "x"))

            // Then
            #expect(
                (error as? AuthenticationError)?.reason.contains(words) == true,
                "\(String(describing: error))")
        }
    }

    @Test("a token that expires in 0 seconds is not a sign-in")
    func noExpiryIsRefused() async throws {
        // Given
        let server = try TestHTTPServer { _ in
            .status(200, body: #"{"access_token":"a1","token_type":"bearer","expires_in":0}"#)
        }
        defer { server.stop() }
        let credentials = OAuthCredentials(tokenURL: server.baseURL.appendingPathComponent("oauth/token"))

        // When
        let error = await PromiseExpectations.error(of: credentials.signIn(user: "amy", password: "x"))

        // Then
        #expect((error as? AuthenticationError)?.reason.contains("without an expiry") == true)
        #expect(credentials.account == nil)
    }

    @Test("a refresh whose lease cannot be taken fails with why, and the sign-in stands")
    func leaseFailureRejectsTheRefresh() async throws {
        // Given: signed in through a file keeper, then its lock file made impossible to open
        let server = try TestHTTPServer { _ in .status(200, body: Self.token) }
        defer { server.stop() }
        let file = folder.file("app.signin")
        let credentials = OAuthCredentials(
            tokenURL: server.baseURL.appendingPathComponent("oauth/token"), keeper: FileTokenKeeper(url: file)
        )
        _ = await PromiseExpectations.value(of: credentials.signIn(user: "amy", password: "apple pie"))
        try FileManager.default.createDirectory(
            at: folder.file("app.signin.lock"), withIntermediateDirectories: true)

        // When
        let error = await PromiseExpectations.error(of: credentials.refresh(replacing: "a1"))

        // Then
        #expect(error is FileTokenKeeper.WriteError, "\(String(describing: error))")
        #expect(credentials.account == "amy")
    }

    @Test("a token with exactly the refresh margin left (5 s) is refreshed before it is used")
    func refreshedAtTheMargin() async throws {
        // Given: signed in at the clock's start, the token good for an hour
        let (bodies, server) = try Self.recordingGrants()
        defer { server.stop() }
        let clock = TestClock()
        let credentials = OAuthCredentials(
            tokenURL: server.baseURL.appendingPathComponent("oauth/token"), now: { clock.now })
        _ = await PromiseExpectations.value(of: credentials.signIn(user: "amy", password: "apple pie"))

        // When: 5 s before it expires
        clock.advance(3_595)
        _ = await PromiseExpectations.value(of: credentials.accessToken())

        // Then
        _ = await bodies.next()
        #expect(await bodies.next()?.contains("grant_type=refresh_token") == true)
    }
}
