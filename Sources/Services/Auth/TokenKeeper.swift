import Foundation

/// Where a sign-in is kept between launches: the refresh token is a secret, so it is kept out of
/// the database (which is copied, backed up and shared with other processes). On Apple platforms
/// `KeychainTokenKeeper` keeps it in the Keychain; ``FileTokenKeeper`` keeps it in a file
/// only its owner can read (the demo, Linux); ``MemoryTokenKeeper`` forgets it with the process.
public protocol TokenKeeper: Sendable {
    /// The grant kept, or `nil`.
    ///
    /// - Returns: The grant.
    /// - Throws: Why it could not be read.
    func load() throws -> TokenGrant?
    /// Keeps `grant` in place of any other.
    ///
    /// - Parameter grant: The grant.
    /// - Throws: Why it could not be written.
    func save(_ grant: TokenGrant) throws
    /// Forgets the grant.
    ///
    /// - Throws: Why it could not be removed.
    func erase() throws
}
