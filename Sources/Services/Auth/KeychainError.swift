// Part of the secret-storage seam (`KeychainTokenKeeper`): Apple platforms only.
#if canImport(Security)
    public import Foundation

    /// The Keychain refused: its `OSStatus` (`SecCopyErrorMessageString` says it in words).
    public struct KeychainError: Error, Equatable, Sendable {
        /// The status the Keychain answered.
        public let status: OSStatus
    }
#endif
