import Foundation
import Testing

@testable import Services

/// What a grant says of itself when logged: the account, the expiry and whether it can be
/// refreshed; never a token.
@Suite("Token grant")
struct TokenGrantTests {
    @Test("a grant describes its account, expiry and whether it can be refreshed, never its tokens")
    func descriptionHidesTheTokens() {
        // Given
        let expiry = Date(timeIntervalSince1970: 0)
        let refreshable = TokenGrant(
            account: "amy", accessToken: "secret-access", expiresAt: expiry, refreshToken: "secret-refresh")
        let final = TokenGrant(
            account: "bob", accessToken: "secret-access", expiresAt: expiry, refreshToken: nil)

        // When
        let described = [refreshable, final].map(String.init(describing:))

        // Then
        #expect(described[0] == "TokenGrant(account: amy, expires: \(expiry), refreshable: true)")
        #expect(described[1] == "TokenGrant(account: bob, expires: \(expiry), refreshable: false)")
        #expect(!described.joined().contains("secret"))
    }
}
