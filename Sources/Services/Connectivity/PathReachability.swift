/// What a network path monitor's updates make of reachability: the logic of
/// `PathMonitorConnectivity` (Apple platforms), kept apart from the Network framework so that
/// every platform's tests run it.
///
/// Before the first path arrives nothing is known, and the API is tried (reachable): reading the
/// monitor's current path then would say "unsatisfied" before the system delivered one. A path
/// that needs a connection to be made first (an on-demand VPN) counts as reachable, since
/// connecting is what brings it up. Only changes are told, the first path always.
struct PathReachability: Sendable, Equatable {
    /// A path's status, as `NWPath.Status` has it.
    enum Status: Sendable, Equatable {
        case satisfied
        case unsatisfied
        case requiresConnection
    }

    /// What the last path said; `nil` before the first.
    private(set) var current: Connectivity?

    /// Whether to try the API: what the last path said, or true before the first.
    var isReachable: Bool { current != .unreachable }

    /// Takes a new path's status.
    ///
    /// - Parameter status: The path's status.
    /// - Returns: The connectivity to tell, when it changed (or is the first); `nil` otherwise.
    mutating func update(_ status: Status) -> Connectivity? {
        let connectivity: Connectivity = status == .unsatisfied ? .unreachable : .reachable
        guard connectivity != current else { return nil }
        current = connectivity
        return connectivity
    }
}
