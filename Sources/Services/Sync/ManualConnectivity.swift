import Foundation

/// Connectivity the app sets itself, from any signal it has (a platform's network monitor on
/// Linux, a setting, a test).
///
/// ```swift
/// let connectivity = ManualConnectivity(.unreachable)
/// let scheduler = SyncScheduler(connectivity: connectivity) { store.sync() }
/// // later, when the app learns the network is back:
/// connectivity.set(.reachable)
/// ```
public final class ManualConnectivity: ConnectivityMonitor, @unchecked Sendable {
    // `@unchecked Sendable` is sound: `current` and `listener` are only read or written while
    // holding `lock`; the listener is called outside it.
    private let lock = NSLock()
    private var current: Connectivity?
    private var listener: (@Sendable (Connectivity) -> Void)?

    /// Makes the monitor.
    ///
    /// - Parameter initial: The state it reports when started; `nil` reports nothing until set.
    public init(_ initial: Connectivity? = nil) {
        current = initial
    }

    /// The state last set.
    public var connectivity: Connectivity? { lock.withLock { current } }

    /// Whether a request has a chance to reach the API: unless it was set unreachable.
    public var isReachable: Bool { connectivity != .unreachable }

    /// Sets the state, telling the scheduler when it changed.
    ///
    /// - Parameter connectivity: The new state.
    public func set(_ connectivity: Connectivity) {
        let listener = lock.withLock { () -> (@Sendable (Connectivity) -> Void)? in
            guard current != connectivity else { return nil }
            current = connectivity
            return self.listener
        }
        listener?(connectivity)
    }

    /// Starts telling `onChange`, with the current state first when it is set.
    ///
    /// - Parameter onChange: Called with each new state.
    public func start(_ onChange: @escaping @Sendable (Connectivity) -> Void) {
        let current = lock.withLock { () -> Connectivity? in
            listener = onChange
            return self.current
        }
        if let current { onChange(current) }
    }

    /// Stops telling.
    public func stop() {
        lock.withLock { listener = nil }
    }
}
