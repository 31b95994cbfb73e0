// Part of the secret-storage seam (`KeychainTokenKeeper`): Apple platforms only.
#if canImport(Security)
    // `OSStatus`, from the framework that answers with it.
    public import Security

    /// The Keychain refused: its `OSStatus` (`SecCopyErrorMessageString` says it in words).
    public struct KeychainError: Error, Equatable, Sendable {
        /// The status the Keychain answered.
        public let status: OSStatus
    }
#endif
