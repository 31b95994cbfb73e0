// The connectivity seam: Apple platforms watch the device's network path with the Network
// framework; elsewhere an app injects a monitor (`ManualConnectivity`) or asks the API (`APIProbe`).
// Not on watchOS: an ordinary watchOS app's path monitor stays unsatisfied (Apple's TN3135), so
// every write would be queued for ever; a watch app asks the API (`APIProbe`).
#if canImport(Network) && !os(watchOS)
    import Foundation
    import Network
    import Promises

    /// The device's network path, as `NWPathMonitor` sees it: reachable while the path is
    /// satisfied. Apple platforms only.
    ///
    /// A satisfied path does not prove the API answers (a captive portal, a server down): the
    /// scheduler's sync then fails once and backs off, as the rules say, rather than retrying in a
    /// loop.
    public final class PathMonitorConnectivity: ConnectivityMonitor, @unchecked Sendable {
        // `@unchecked Sendable` is sound: `monitor` and `reachability` are only read or written
        // while holding `lock`, and `NWPathMonitor` itself may be started and cancelled from any
        // thread.
        private let lock = Locked()
        private var monitor: NWPathMonitor?
        /// What the paths delivered so far say (the logic, tested on every platform).
        private var reachability = PathReachability()
        private let queue = DispatchQueue(label: "PathMonitorConnectivity")

        /// Makes the monitor; it watches nothing until started.
        public init() {}

        /// Whether the last network path delivered was usable; before the first, true.
        public var isReachable: Bool {
            lock.withLock { reachability.isReachable }
        }

        /// Starts watching the network path, telling `onChange` of every change of reachability,
        /// the first path's first.
        ///
        /// - Parameter onChange: Called on a private queue with each new state.
        public func start(_ onChange: @escaping @Sendable (Connectivity) -> Void) {
            let monitor = NWPathMonitor()
            monitor.pathUpdateHandler = { [weak self] path in
                let status: PathReachability.Status =
                    switch path.status {
                    case .satisfied: .satisfied
                    case .requiresConnection: .requiresConnection
                    default: .unsatisfied
                    }
                guard let self else { return }
                let changed = self.lock.withLock { self.reachability.update(status) }
                if let changed { onChange(changed) }
            }
            let previous = lock.withLock { () -> NWPathMonitor? in
                defer {
                    self.monitor = monitor
                    self.reachability = PathReachability()
                }
                return self.monitor
            }
            previous?.cancel()
            monitor.start(queue: queue)
        }

        /// Stops watching.
        public func stop() {
            let monitor = lock.withLock { () -> NWPathMonitor? in
                defer { self.monitor = nil }
                return self.monitor
            }
            monitor?.cancel()
        }
    }
#endif
