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
}
