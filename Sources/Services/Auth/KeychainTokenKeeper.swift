// The secret-storage seam: Apple platforms keep a sign-in in the Keychain; elsewhere an app (the
// demo on Linux) keeps it in a file only its owner can read (`FileTokenKeeper`).
#if canImport(Security)
    import Foundation
    import Promises
    import Security

    /// A sign-in kept in the Keychain, as a generic password item under ``service`` and
    /// ``account``: readable after the device's first unlock, on this device only (never in a
    /// backup restored elsewhere). Apple platforms only.
    ///
    /// The item is kept in the data-protection keychain on every platform
    /// (`kSecUseDataProtectionKeychain`): iOS, tvOS, watchOS and visionOS have no other, and on
    /// macOS it is what makes "this device only" true (the file-based keychain ignores it). On
    /// macOS that keychain needs a signed process with a keychain access group: an unsigned test
    /// runner is refused (`errSecMissingEntitlement`, a ``KeychainError``), and should keep its
    /// sign-in with ``FileTokenKeeper`` instead.
    public struct KeychainTokenKeeper: TokenKeeper {
        /// The item's service, such as the app's bundle identifier.
        public let service: String
        /// The item's account name; one item per app by default.
        public let account: String

        /// Makes the keeper.
        ///
        /// - Parameters:
        ///   - service: The item's service.
        ///   - account: The item's account name.
        public init(service: String, account: String = "sign-in") {
            self.service = service
            self.account = account
        }

        /// Every Keychain call of the process, one at a time, whichever keeper and thread makes
        /// it: Apple asks for `SecItem` calls to be serialised (on macOS they are not safe to make
        /// at once), and one lock for every keeper is the one place that does it.
        private static let serial = Locked()

        /// The attributes that find the item.
        private var item: CFDictionary {
            Self.dictionary(KeychainQuery.item(service: service, account: account))
        }

        /// `attributes` as the Security framework names them.
        private static func dictionary(_ attributes: [KeychainQuery.Attribute]) -> CFDictionary {
            var dictionary: [String: Any] = [:]
            for attribute in attributes {
                switch attribute {
                case .genericPassword: dictionary[kSecClass as String] = kSecClassGenericPassword
                case .service(let service): dictionary[kSecAttrService as String] = service
                case .account(let account): dictionary[kSecAttrAccount as String] = account
                case .dataProtectionKeychain: dictionary[kSecUseDataProtectionKeychain as String] = true
                case .returningData: dictionary[kSecReturnData as String] = true
                case .oneMatch: dictionary[kSecMatchLimit as String] = kSecMatchLimitOne
                case .value(let data): dictionary[kSecValueData as String] = data
                case .afterFirstUnlockThisDeviceOnly:
                    dictionary[kSecAttrAccessible as String] =
                        kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                }
            }
            return dictionary as CFDictionary
        }

        /// The grant in the item, or `nil` when there is none.
        ///
        /// - Returns: The grant.
        /// - Throws: ``KeychainError`` when the Keychain refused, or the item's decoding error.
        public func load() throws -> TokenGrant? {
            let query = Self.dictionary(KeychainQuery.load(service: service, account: account))
            var found: CFTypeRef?
            let status = Self.serial.withLock { SecItemCopyMatching(query, &found) }
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = found as? Data else {
                throw KeychainError(status: status)
            }
            return try JSONDecoder().decode(TokenGrant.self, from: data)
        }

        /// Writes `grant` into the item, making it when there is none.
        ///
        /// - Parameter grant: The grant.
        /// - Throws: ``KeychainError`` when the Keychain refused.
        public func save(_ grant: TokenGrant) throws {
            let data = try JSONEncoder().encode(grant)
            let (item, update) = (item, Self.dictionary(KeychainQuery.update(data)))
            let add = Self.dictionary(KeychainQuery.add(service: service, account: account, data))
            // The update and the add under one hold: no other call of the process between them.
            let (updated, added) = Self.serial.withLock { () -> (OSStatus, OSStatus?) in
                let updated = SecItemUpdate(item, update)
                guard updated == errSecItemNotFound else { return (updated, nil) }
                return (updated, SecItemAdd(add, nil))
            }
            if updated == errSecSuccess { return }
            guard let added else { throw KeychainError(status: updated) }
            guard added == errSecSuccess else { throw KeychainError(status: added) }
        }

        /// Deletes the item.
        ///
        /// - Throws: ``KeychainError`` when the Keychain refused.
        public func erase() throws {
            let item = item
            let status = Self.serial.withLock { SecItemDelete(item) }
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw KeychainError(status: status)
            }
        }
    }
#endif
