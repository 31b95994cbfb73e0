import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

@Suite("SyncScheduler: signed out")
struct SyncSchedulerSignInTests {
    @Test("a sync that finds nobody signed in waits for the sign-in, without a backoff, then syncs at once")
    func waitsForTheSignIn() async {
        // Given: the first sync stops on a 401
        let subject = ScheduledSync()
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        subject.sync.finish(OutboxSyncReport(waiting: 3, stoppedBecause: .httpStatus(401)))
        _ = await subject.reach { $0 == .signedOut }

        // When: time passes and changes are queued
        subject.scheduler.changeQueued()
        subject.clock.advance(3600)
        await subject.decided()
        // Then: nothing ran, nothing is scheduled
        #expect(subject.sync.calls == 1)
        #expect(subject.clock.wakeUps.isEmpty)

        // When: someone signs in
        subject.scheduler.signedIn()
        // Then
        _ = await subject.reach { $0 == .syncing }
        #expect(subject.sync.calls == 2)
    }
}
