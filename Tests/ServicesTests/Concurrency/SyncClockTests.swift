import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// The wall clock the scheduler waits with outside tests.
@Suite("SystemSyncClock")
struct SyncClockTests {
    @Test("work scheduled an hour ahead has not run when work scheduled at once has")
    func laterWorkWaits() async {
        // Given
        let clock = SystemSyncClock()
        let ran = Locked(false)
        let later = clock.schedule(after: 3_600) { ran.withLock { $0 = true } }
        defer { later.cancel() }

        // When
        let (now, resolve) = Guarantee<Void>.pending()
        _ = clock.schedule(after: 0) { resolve(()) }
        _ = await PromiseExpectations.value(of: now)

        // Then
        #expect(ran.withLock { $0 } == false)
    }

    @Test("work cancelled before its time never runs; work due after it does")
    func cancelledWorkNeverRuns() async {
        // Given
        let clock = SystemSyncClock()
        let ran = Locked(false)
        let cancelled = clock.schedule(after: 0.5) { ran.withLock { $0 = true } }

        // When
        cancelled.cancel()
        let (later, resolve) = Guarantee<Void>.pending()
        _ = clock.schedule(after: 1) { resolve(()) }
        _ = await PromiseExpectations.value(of: later)

        // Then
        #expect(ran.withLock { $0 } == false)
    }
}
