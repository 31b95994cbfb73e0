/// Tells whether the network is worth trying before a request is sent.
///
/// On Apple platforms an app plugs in its own monitor (for example one built on `NWPathMonitor`).
/// Without one, ``AssumeReachable`` is used: the request is always tried, and its own connectivity
/// failure is the signal to use the cache, which is also how it works on Linux.
public protocol NetworkReachability: Sendable {
    /// Whether a request has a chance to reach the server now.
    var isReachable: Bool { get }
}

/// Always tries the network; a failed request tells that it is not there.
public struct AssumeReachable: NetworkReachability {
    /// Makes the default reachability.
    public init() {}

    /// Always true.
    public var isReachable: Bool { true }
}

extension NetworkReachability where Self == AssumeReachable {
    /// Always tries the network.
    public static var assumeReachable: AssumeReachable { AssumeReachable() }
}
