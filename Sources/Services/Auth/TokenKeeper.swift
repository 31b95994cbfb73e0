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
    /// Begins a token refresh that no other process using this keeper runs meanwhile: waits
    /// (blocking) while one runs elsewhere. ``OAuthCredentials`` reads the keeper again once it
    /// has the lease, so a refresh another process just made is used, not made twice.
    ///
    /// - Returns: The lease, which ends when ``RefreshLease/end()`` is called.
    /// - Throws: Why the lease could not be taken.
    func beginRefresh() throws -> RefreshLease
}

extension TokenKeeper {
    /// A lease shared by nobody: for a keeper only this process uses (``MemoryTokenKeeper``).
    /// Refreshes within one process are already made one at a time by ``OAuthCredentials``.
    ///
    /// - Returns: A lease that holds nothing.
    public func beginRefresh() throws -> RefreshLease {
        RefreshLease {}
    }
}
