import Testing

@testable import Services

/// `PathReachability`: what `PathMonitorConnectivity` (Apple platforms) makes of each network
/// path, run here on every platform.
@Suite("PathReachability")
struct PathReachabilityTests {
    @Test("before the first path the API is tried; each change is told once, the first path always")
    func changesAreToldOnce() {
        // Given
        var reachability = PathReachability()
        let before = reachability.isReachable

        // When: paths as the system delivers them
        let told = [
            PathReachability.Status.unsatisfied, .unsatisfied, .satisfied, .requiresConnection, .satisfied,
            .unsatisfied,
        ].map { reachability.update($0) }

        // Then
        #expect(before)
        #expect(told == [.unreachable, nil, .reachable, nil, nil, .unreachable])
        #expect(!reachability.isReachable)
    }

    @Test("a path that needs a connection first (an on-demand VPN) is reachable: connecting brings it up")
    func requiresConnectionIsReachable() {
        // Given
        var reachability = PathReachability()

        // When
        let told = reachability.update(.requiresConnection)

        // Then
        #expect(told == .reachable && reachability.isReachable)
    }
}
