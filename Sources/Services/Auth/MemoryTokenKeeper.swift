import Foundation

/// A sign-in kept for the life of the process only.
public final class MemoryTokenKeeper: TokenKeeper, @unchecked Sendable {
    // `@unchecked Sendable` is sound: `grant` is only read or written while holding `lock`.
    private let lock = NSLock()
    private var grant: TokenGrant?

    /// Makes an empty keeper.
    public init() {}

    /// The grant kept, or `nil`.
    ///
    /// - Returns: The grant.
    public func load() -> TokenGrant? { lock.withLock { grant } }
    /// Keeps `grant`.
    ///
    /// - Parameter grant: The grant.
    public func save(_ grant: TokenGrant) { lock.withLock { self.grant = grant } }
    /// Forgets the grant.
    public func erase() { lock.withLock { grant = nil } }
}
