import Foundation
import Promises

/// Connectivity the app sets itself, from any signal it has (a platform's network monitor on
/// Linux, a setting, a test).
///
/// ```swift
/// let connectivity = ManualConnectivity(.unreachable)
/// let scheduler = SyncScheduler(connectivity: connectivity) { store.sync() }
/// // later, when the app learns the network is back:
/// connectivity.set(.reachable)
/// ```
public final class ManualConnectivity: ConnectivityMonitor, Sendable {
    private struct State {
        var current: Connectivity?
        var listener: (@Sendable (Connectivity) -> Void)?
    }
    /// The listener is called outside the lock, so that it may read the state again.
    private let state: Locked<State>

    /// Makes the monitor.
    ///
    /// - Parameter initial: The state it reports when started; `nil` reports nothing until set.
    public init(_ initial: Connectivity? = nil) {
        state = Locked(State(current: initial))
    }

    /// The state last set.
    public var connectivity: Connectivity? { state.withLock { $0.current } }

    /// Whether a request has a chance to reach the API: unless it was set unreachable.
    public var isReachable: Bool { connectivity != .unreachable }

    /// Sets the state, telling the scheduler when it changed.
    ///
    /// - Parameter connectivity: The new state.
    public func set(_ connectivity: Connectivity) {
        let listener = state.withLock { state -> (@Sendable (Connectivity) -> Void)? in
            guard state.current != connectivity else { return nil }
            state.current = connectivity
            return state.listener
        }
        listener?(connectivity)
    }

    /// Starts telling `onChange`, with the current state first when it is set.
    ///
    /// - Parameter onChange: Called with each new state.
    public func start(_ onChange: @escaping @Sendable (Connectivity) -> Void) {
        let current = state.withLock { state -> Connectivity? in
            state.listener = onChange
            return state.current
        }
        if let current { onChange(current) }
    }

    /// Stops telling.
    public func stop() {
        state.withLock { $0.listener = nil }
    }
}
