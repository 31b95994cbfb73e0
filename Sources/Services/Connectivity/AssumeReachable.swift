/// Always tries the API and never reports a change: a failed request tells that it is not there
/// (the copy is shown, the write queued), and a failed sync backs off and tries again. The
/// default wherever a ``ConnectivityMonitor`` is taken, and how it works on Linux.
public struct AssumeReachable: ConnectivityMonitor {
    /// Makes the default monitor.
    public init() {}

    /// Always true.
    public var isReachable: Bool { true }
}

extension ConnectivityMonitor where Self == AssumeReachable {
    /// Always tries the API.
    public static var assumeReachable: AssumeReachable { AssumeReachable() }
}
