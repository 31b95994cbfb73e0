// The connectivity seam: Apple platforms watch the device's network path with the Network
// framework; elsewhere an app injects a monitor (`ManualConnectivity`) or asks the API (`APIProbe`).
// Not on watchOS: an ordinary watchOS app's path monitor stays unsatisfied (Apple's TN3135), so
// every write would be queued for ever; a watch app asks the API (`APIProbe`).
#if canImport(Network) && !os(watchOS)
    import Foundation
    import Network

    /// The device's network path, as `NWPathMonitor` sees it: reachable while the path is
    /// satisfied. Apple platforms only.
    ///
    /// A satisfied path does not prove the API answers (a captive portal, a server down): the
    /// scheduler's sync then fails once and backs off, as the rules say, rather than retrying in a
    /// loop.
    public final class PathMonitorConnectivity: ConnectivityMonitor, @unchecked Sendable {
        // `@unchecked Sendable` is sound: `monitor` is only read or written while holding `lock`,
        // and `NWPathMonitor` itself may be started and cancelled from any thread.
        private let lock = NSLock()
        private var monitor: NWPathMonitor?
        private let queue = DispatchQueue(label: "PathMonitorConnectivity")

        /// Makes the monitor; it watches nothing until started.
        public init() {}

        /// Whether the network path is satisfied; before the monitor is started, true.
        public var isReachable: Bool {
            lock.withLock { monitor }.map { $0.currentPath.status == .satisfied } ?? true
        }

        /// Starts watching the network path, telling `onChange` of every change, the current path
        /// first.
        ///
        /// - Parameter onChange: Called on a private queue with each new state.
        public func start(_ onChange: @escaping @Sendable (Connectivity) -> Void) {
            let monitor = NWPathMonitor()
            monitor.pathUpdateHandler = { path in
                onChange(path.status == .satisfied ? .reachable : .unreachable)
            }
            let previous = lock.withLock { () -> NWPathMonitor? in
                defer { self.monitor = monitor }
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
