import Foundation
import Testing

@testable import Services

/// `KeychainQuery`: what `KeychainTokenKeeper` (Apple platforms) asks the Keychain, tested on every
/// platform.
@Suite("KeychainQuery")
struct KeychainQueryTests {
    @Test("every call is in the data-protection keychain; only the item added says this device only")
    func dataProtectionAndThisDeviceOnly() {
        // Given
        let data = Data("grant".utf8)

        // When
        let calls = [
            KeychainQuery.item(service: "app", account: "sign-in"),
            KeychainQuery.load(service: "app", account: "sign-in"),
            KeychainQuery.add(service: "app", account: "sign-in", data),
        ]

        // Then
        for call in calls {
            #expect(call.contains(.dataProtectionKeychain))
            #expect(
                call.contains(.genericPassword) && call.contains(.service("app"))
                    && call.contains(.account("sign-in")))
        }
        #expect(
            KeychainQuery.add(service: "app", account: "sign-in", data).contains(
                .afterFirstUnlockThisDeviceOnly))
        #expect(KeychainQuery.add(service: "app", account: "sign-in", data).contains(.value(data)))
        #expect(KeychainQuery.load(service: "app", account: "sign-in").contains(.returningData))
        #expect(KeychainQuery.load(service: "app", account: "sign-in").contains(.oneMatch))
        #expect(
            KeychainQuery.update(data) == [.value(data)], "an update changes the data, not the protection")
    }
}
