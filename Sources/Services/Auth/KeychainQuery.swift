import Foundation

/// What `KeychainTokenKeeper` asks the Keychain, call by call, as plain attributes: compiled on
/// every platform, so that which attribute goes with which call (the data-protection keychain on
/// every one, "this device only" on the item it adds) is tested where the Security framework is
/// not. The keeper turns each attribute into its `kSec…` key and value (Apple platforms).
enum KeychainQuery {
    /// One attribute of a Keychain call.
    enum Attribute: Hashable, Sendable {
        /// `kSecClass`: a generic password.
        case genericPassword
        /// `kSecAttrService`.
        case service(String)
        /// `kSecAttrAccount`.
        case account(String)
        /// `kSecUseDataProtectionKeychain`: the keychain where "this device only" holds on macOS too.
        case dataProtectionKeychain
        /// `kSecReturnData`.
        case returningData
        /// `kSecMatchLimit` of one.
        case oneMatch
        /// `kSecValueData`.
        case value(Data)
        /// `kSecAttrAccessible`: after the first unlock, on this device only (never restored elsewhere).
        case afterFirstUnlockThisDeviceOnly
    }

    /// The attributes that find the item of `service` and `account`.
    static func item(service: String, account: String) -> [Attribute] {
        [.genericPassword, .service(service), .account(account), .dataProtectionKeychain]
    }

    /// `SecItemCopyMatching`: the item's data.
    static func load(service: String, account: String) -> [Attribute] {
        item(service: service, account: account) + [.returningData, .oneMatch]
    }

    /// `SecItemUpdate`'s new attributes: the data alone (the item keeps how it is protected).
    static func update(_ data: Data) -> [Attribute] {
        [.value(data)]
    }

    /// `SecItemAdd`: the item, its data, and how it is protected.
    static func add(service: String, account: String, _ data: Data) -> [Attribute] {
        item(service: service, account: account) + [.value(data), .afterFirstUnlockThisDeviceOnly]
    }
}
