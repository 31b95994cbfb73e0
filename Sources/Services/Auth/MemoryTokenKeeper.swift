import Foundation
import Promises

/// A sign-in kept for the life of the process only.
public final class MemoryTokenKeeper: TokenKeeper, Sendable {
    private let grant = Locked<TokenGrant?>(nil)

    /// Makes an empty keeper.
    public init() {}

    /// The grant kept, or `nil`.
    ///
    /// - Returns: The grant.
    public func load() -> TokenGrant? { grant.withLock { $0 } }
    /// Keeps `grant`.
    ///
    /// - Parameter grant: The grant.
    public func save(_ grant: TokenGrant) { self.grant.withLock { $0 = grant } }
    /// Forgets the grant.
    public func erase() { grant.withLock { $0 = nil } }
}
