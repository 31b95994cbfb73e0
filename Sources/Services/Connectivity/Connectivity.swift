/// Whether the API can be reached, as a ``ConnectivityMonitor`` tells it.
public enum Connectivity: Sendable, Equatable {
    /// A request has a chance to reach the API.
    case reachable
    /// Known not to reach it: no network, or the API did not answer.
    case unreachable
}
