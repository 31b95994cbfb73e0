import Promises

/// A token refresh that no other process sharing the same ``TokenKeeper`` runs meanwhile, begun
/// with ``TokenKeeper/beginRefresh()`` and ended with ``end()``: with a refresh token the API
/// rotates, two processes refreshing at once would spend the same token twice, and the second
/// would be refused and sign everyone out.
public final class RefreshLease: Sendable {
    private let release: Locked<(@Sendable () -> Void)?>

    /// Makes a lease that calls `release` once, when it ends (or goes away unended).
    ///
    /// - Parameter release: Lets the next refresh begin.
    public init(release: @escaping @Sendable () -> Void) {
        self.release = Locked(release)
    }

    /// Lets the next refresh begin; later calls do nothing.
    public func end() {
        let release = release.withLock { release -> (@Sendable () -> Void)? in
            defer { release = nil }
            return release
        }
        release?()
    }

    deinit {
        end()
    }
}
