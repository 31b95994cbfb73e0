import Promises
import Testing

@testable import Services

/// A refresh lease lets the next refresh begin exactly once (`RefreshLease.swift`).
@Suite("Refresh lease")
struct RefreshLeaseTests {
    @Test("ended twice, a lease lets the next refresh begin once")
    func endsOnce() {
        // Given
        let released = Locked(0)
        let lease = RefreshLease { released.withLock { $0 += 1 } }

        // When
        lease.end()
        lease.end()

        // Then
        #expect(released.withLock { $0 } == 1)
    }

    @Test("a lease that goes away unended lets the next refresh begin: a failed refresh locks no one out")
    func droppedLeaseReleases() {
        // Given
        let released = Locked(0)
        var lease: RefreshLease? = RefreshLease { released.withLock { $0 += 1 } }
        #expect(lease != nil)

        // When
        lease = nil

        // Then
        #expect(released.withLock { $0 } == 1)
    }
}
