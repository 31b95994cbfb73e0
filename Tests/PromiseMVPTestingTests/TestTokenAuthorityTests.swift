import Foundation
import PromiseMVPTesting
import Testing

/// The token endpoint reads its form as RFC 6749 sends it.
@Suite("TestTokenAuthority")
struct TestTokenAuthorityTests {
    @Test("a password grant's form is read field by field: `+` a space, a field without a value empty")
    func passwordGrantForm() async throws {
        // Given
        let authority = TestTokenAuthority(users: ["amy": "apple pie"]) { _ in nil }
        let server = try TestHTTPServer(responder: authority.respond)
        defer { server.stop() }
        let form = "grant_type=password&username=amy&password=apple+pie&scope"

        // When
        let answer = await BlockingWork.run {
            RawHTTPConnection.exchange(
                "POST /oauth/token HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    + "Content-Length: \(form.utf8.count)\r\n\r\n\(form)", port: server.port)
        }

        // Then
        #expect(answer?.hasPrefix("HTTP/1.1 200") == true, "\(answer ?? "no answer")")
        #expect(answer?.contains("\"access_token\"") == true)
        #expect(authority.grants == 1)
    }

    /// Two users; each one's data answers with its name.
    static func authority() -> TestTokenAuthority {
        TestTokenAuthority(users: ["amy": "apple", "bo": "banana"]) { user in
            { _ in .status(200, body: "\"\(user)\"") }
        }
    }

    /// A grant asked with `form`: its tokens, or the error the endpoint said.
    static func grant(_ authority: TestTokenAuthority, _ form: String) -> (access: String, refresh: String)? {
        let reply = authority.respond(
            TestHTTPServer.Request(method: "POST", path: "/oauth/token", body: Data(form.utf8)))
        guard case .status(200, let body, _, _) = reply,
            let fields = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
            let access = fields["access_token"] as? String, let refresh = fields["refresh_token"] as? String
        else { return nil }
        return (access, refresh)
    }

    /// The status a read of the user's data with `token` gets.
    static func read(_ authority: TestTokenAuthority, with token: String) -> Int? {
        let reply = authority.respond(
            TestHTTPServer.Request(
                method: "GET", path: "/notes", headers: ["authorization": "Bearer \(token)"]))
        guard case .status(let status, _, _, _) = reply else { return nil }
        return status
    }

    @Test("a password grant needs the user's own password: another's, or an unknown user, is refused")
    func passwordGrantChecksThePassword() {
        // Given
        let authority = Self.authority()

        // When / Then
        #expect(Self.grant(authority, "grant_type=password&username=amy&password=apple") != nil)
        #expect(Self.grant(authority, "grant_type=password&username=amy&password=banana") == nil)
        #expect(Self.grant(authority, "grant_type=password&username=cy&password=apple") == nil)
        #expect(authority.grants == 1)
    }

    @Test("a refresh token gets new tokens, counted; an unknown one is refused and not counted")
    func refreshGrants() throws {
        // Given
        let authority = Self.authority()
        let first = try #require(Self.grant(authority, "grant_type=password&username=amy&password=apple"))

        // When: two refreshes, and one with a token never given
        let refreshed = Self.grant(authority, "grant_type=refresh_token&refresh_token=\(first.refresh)")
        let again = Self.grant(
            authority, "grant_type=refresh_token&refresh_token=\(refreshed?.refresh ?? "")")
        let unknown = Self.grant(authority, "grant_type=refresh_token&refresh_token=nothing")

        // Then
        #expect(refreshed != nil && again != nil && unknown == nil)
        #expect(authority.refreshes == 2)
        #expect(Self.read(authority, with: again?.access ?? "") == 200)
    }

    @Test("once rotating, a refresh token works once: a second use is refused")
    func rotatingRefreshTokens() throws {
        // Given
        let authority = Self.authority()
        let first = try #require(Self.grant(authority, "grant_type=password&username=amy&password=apple"))
        authority.rotateRefreshTokens()

        // When
        let once = Self.grant(authority, "grant_type=refresh_token&refresh_token=\(first.refresh)")
        let twice = Self.grant(authority, "grant_type=refresh_token&refresh_token=\(first.refresh)")

        // Then
        #expect(once != nil && twice == nil)
    }

    @Test("a changed password refuses that user's tokens, and no one else's")
    func changedPassword() throws {
        // Given
        let authority = Self.authority()
        let amy = try #require(Self.grant(authority, "grant_type=password&username=amy&password=apple"))
        let bo = try #require(Self.grant(authority, "grant_type=password&username=bo&password=banana"))

        // When
        authority.changePassword(of: "amy", to: "pear")

        // Then
        #expect(Self.read(authority, with: amy.access) == 401)
        #expect(Self.grant(authority, "grant_type=refresh_token&refresh_token=\(amy.refresh)") == nil)
        #expect(Self.read(authority, with: bo.access) == 200)
        #expect(Self.grant(authority, "grant_type=refresh_token&refresh_token=\(bo.refresh)") != nil)
        #expect(Self.grant(authority, "grant_type=password&username=amy&password=pear") != nil)
    }

    @Test("reads are answered for the token's user and listed; refused ones are counted")
    func readsListedAndRefusalsCounted() throws {
        // Given
        let authority = Self.authority()
        let amy = try #require(Self.grant(authority, "grant_type=password&username=amy&password=apple"))

        // When
        let fine = Self.read(authority, with: amy.access)
        let stranger = Self.read(authority, with: "made-up")
        authority.refuseEveryToken()
        let refusedAll = Self.read(authority, with: amy.access)

        // Then
        #expect(fine == 200 && stranger == 401 && refusedAll == 401)
        #expect(authority.requests == ["amy GET /notes"])
        #expect(authority.refused == 2)
    }

    @Test("answerGrants replaces every grant's answer; nil goes back to tokens")
    func answerGrantsReplacesTheAnswer() {
        // Given
        let authority = Self.authority()

        // When
        authority.answerGrants(with: .status(503, body: "down"))
        let replaced = Self.grant(authority, "grant_type=password&username=amy&password=apple")
        authority.answerGrants(with: nil)
        let back = Self.grant(authority, "grant_type=password&username=amy&password=apple")

        // Then
        #expect(replaced == nil && back != nil)
        #expect(authority.grants == 1)
    }
}
