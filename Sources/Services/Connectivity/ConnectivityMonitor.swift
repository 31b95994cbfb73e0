/// Whether the API can be reached: asked by a read or a write before it tries the network
/// (``isReachable``), and followed by a `SyncScheduler` (``start(_:)``), which syncs as soon as
/// the API can be reached again and does nothing while it cannot. One monitor serves both: give
/// the same one to an `OfflineCollection` or a ``NetworkFallback`` and to the scheduler.
///
/// | platform | monitor |
/// | --- | --- |
/// | Apple platforms | `PathMonitorConnectivity` (`NWPathMonitor`): the device's network path |
/// | anywhere | ``APIProbe``: asks the API itself, on the backoff schedule, after a sync found it unreachable |
/// | anywhere | ``ManualConnectivity``: the app says it, from whatever signal it has |
/// | anywhere | ``AssumeReachable``: always tries; a failed request or sync is the signal (the default) |
///
/// Every requirement has a default: a type that only knows ``isReachable`` is asked and never
/// followed; one that only reports changes is always tried.
public protocol ConnectivityMonitor: Sendable {
    /// Whether a request has a chance to reach the API now.
    var isReachable: Bool { get }

    /// Starts telling `onChange` about changes, with the current state first when it is known.
    ///
    /// - Parameter onChange: Called on any thread with each new state.
    func start(_ onChange: @escaping @Sendable (Connectivity) -> Void)

    /// Stops telling. Called once, when the scheduler stops.
    func stop()

    /// A sync could not reach the API. A monitor that can only learn by asking (``APIProbe``)
    /// answers ``Connectivity/unreachable`` and starts asking; one that watches the device's
    /// network does nothing: its word stands, and the scheduler backs off.
    func syncFoundUnreachable()
}

extension ConnectivityMonitor {
    /// Always: a monitor that does not say is tried, and a failed request tells.
    public var isReachable: Bool { true }

    /// Reports nothing.
    public func start(_ onChange: @escaping @Sendable (Connectivity) -> Void) {}

    /// Does nothing.
    public func stop() {}

    /// Does nothing: the monitor's own word stands.
    public func syncFoundUnreachable() {}
}
