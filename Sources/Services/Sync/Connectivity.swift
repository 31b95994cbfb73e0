/// Whether the API can be reached, as a ``ConnectivityMonitor`` tells it.
public enum Connectivity: Sendable, Equatable {
    /// A request has a chance to reach the API.
    case reachable
    /// Known not to reach it: no network, or the API did not answer.
    case unreachable
}

/// Tells a ``SyncScheduler`` when connectivity changes, so that it syncs as soon as the API can
/// be reached again and does nothing while it cannot.
///
/// | platform | monitor |
/// | --- | --- |
/// | Apple platforms | `PathMonitorConnectivity` (`NWPathMonitor`): the device's network path |
/// | anywhere | ``APIProbe``: asks the API itself, on the backoff schedule, after a sync found it unreachable |
/// | anywhere | ``ManualConnectivity``: the app says it, from whatever signal it has |
/// | anywhere | ``AssumeConnected``: never tells anything; failed syncs back off and try again |
public protocol ConnectivityMonitor: Sendable {
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
    /// Does nothing: the monitor's own word stands.
    public func syncFoundUnreachable() {}
}

/// A monitor that never reports: the scheduler takes the API as reachable, and a sync that
/// cannot reach it backs off and tries again.
public struct AssumeConnected: ConnectivityMonitor {
    /// Makes the monitor.
    public init() {}

    /// Reports nothing.
    public func start(_ onChange: @escaping @Sendable (Connectivity) -> Void) {}

    /// Does nothing.
    public func stop() {}
}
