import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// Refreshes counted as they start.
final class RefreshCount: Sendable {
    let started = DeliveryRecorder<Int>()
    private let counter = DeliveryRecorder<Void>()

    func refresh() -> Promise<Void> {
        counter.record(())
        started.record(counter.all.count)
        return .value(())
    }

    var count: Int { counter.all.count }
}

@Suite("SyncScheduler: refreshing watched collections")
struct SyncSchedulerRefreshTests {
    /// Given: a started scheduler with a collection watched every 30 s, its first sync ended.
    func watched(_ connectivity: ManualConnectivity = ManualConnectivity(.reachable)) async -> (
        ScheduledSync, RefreshCount, ObservationHandle
    ) {
        let subject = ScheduledSync(connectivity: connectivity)
        let refreshes = RefreshCount()
        let handle = subject.scheduler.refresh(every: 30) { refreshes.refresh() }
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        subject.sync.finish()
        _ = await refreshes.started.next()
        _ = await subject.reach { $0 == .idle }
        await subject.decided()
        return (subject, refreshes, handle)
    }

    @Test("started, it syncs and then refreshes; then every interval, a sync and a refresh")
    func refreshesAfterStartAndOnInterval() async {
        // Given
        let (subject, refreshes, handle) = await watched()

        // When
        subject.clock.advance(30)
        _ = await subject.reach { $0 == .syncing }
        subject.sync.finish()

        // Then
        #expect(await refreshes.started.next() == 2)
        #expect(subject.sync.calls == 2)
        handle.cancel()
    }

    @Test("the app active again and connectivity back refresh after their sync; a queued change does not")
    func triggersThatRefresh() async {
        // Given
        let connectivity = ManualConnectivity(.reachable)
        let (subject, refreshes, handle) = await watched(connectivity)

        // When: a change queued
        subject.scheduler.changeQueued()
        await subject.decided()  // the gathering's wake-up scheduled before the clock moves
        subject.clock.advance(0.2)
        _ = await subject.reach { $0 == .syncing }
        subject.sync.finish()
        _ = await subject.reach { $0 == .idle }
        await subject.decided()
        let afterChange = refreshes.count

        // When: the app active again
        subject.scheduler.appBecameActive()
        _ = await subject.reach { $0 == .syncing }
        subject.sync.finish()
        let afterActive = await refreshes.started.next()
        _ = await subject.reach { $0 == .idle }

        // When: offline, an interval passes, then back
        connectivity.set(.unreachable)
        _ = await subject.reach { $0 == .offline }
        subject.clock.advance(60)
        await subject.decided()
        let whileOffline = refreshes.count
        connectivity.set(.reachable)
        _ = await subject.reach { $0 == .syncing }
        subject.sync.finish()

        // Then
        #expect(afterChange == 1)
        #expect(afterActive == 2)
        #expect(whileOffline == 2)
        #expect(await refreshes.started.next() == 3)
        handle.cancel()
    }

    @Test("a collection watched while the scheduler idles is synced and refreshed at once")
    func watchedWhileIdleRefreshesAtOnce() async {
        // Given: started, nothing watched, its first sync ended
        let subject = ScheduledSync()
        await subject.startedAndIdle()
        let refreshes = RefreshCount()

        // When
        let handle = subject.scheduler.refresh(every: 30) { refreshes.refresh() }
        _ = await subject.reach { $0 == .syncing }
        subject.sync.finish()

        // Then: its sync, then its refresh, with no clock moved
        #expect(await refreshes.started.next() == 1)
        #expect(subject.sync.calls == 2)
        handle.cancel()
    }

    @Test("a collection no longer watched is not refreshed")
    func cancelledIsNotRefreshed() async {
        // Given
        let (subject, refreshes, handle) = await watched()

        // When
        handle.cancel()
        await subject.decided()
        let plannedAfterCancel = subject.clock.wakeUps
        subject.clock.advance(30)
        subject.scheduler.appBecameActive()
        _ = await subject.reach { $0 == .syncing }
        subject.sync.finish()
        _ = await subject.reach { $0 == .idle }
        await subject.decided()

        // Then: its planned refresh went with it
        #expect(plannedAfterCancel.isEmpty)
        #expect(subject.sync.calls == 2)
        #expect(refreshes.count == 1)
        #expect(subject.clock.wakeUps.isEmpty)
    }

    @Test("a refresh waits for the sync that runs; a refresh asked meanwhile comes after it, once")
    func refreshWaitsForSync() async {
        // Given: a sync running
        let (subject, refreshes, handle) = await watched()
        subject.scheduler.appBecameActive()
        _ = await subject.reach { $0 == .syncing }

        // When: the interval passes during it
        subject.clock.advance(30)
        await subject.decided()
        let duringSync = refreshes.count
        subject.sync.finish()
        let afterSync = await refreshes.started.next()
        _ = await subject.reach { $0 == .syncing }
        subject.sync.finish()

        // Then: nothing beside the sync; its refresh, then one more sync and refresh
        #expect(duringSync == 1 && afterSync == 2)
        #expect(await refreshes.started.next() == 3)
        #expect(subject.sync.mostAtOnce == 1)
        handle.cancel()
    }

    @Test("a sync that stopped (the API failing) refreshes nothing; the sync after the backoff refreshes")
    func stoppedSyncRefreshesNothing() async {
        // Given
        let (subject, refreshes, handle) = await watched()

        // When: the app is active again and its sync stops on a failing API
        subject.scheduler.appBecameActive()
        _ = await subject.reach { $0 == .syncing }
        var stopped = OutboxSyncReport()
        stopped.stoppedBecause = .httpStatus(503)
        subject.sync.finish(stopped)
        await subject.decided()
        let afterStop = refreshes.count
        // ... and the next sync, after the backoff, goes through
        subject.clock.advance(300)
        _ = await subject.reach { $0 == .syncing }
        subject.sync.finish()

        // Then
        #expect(afterStop == 1)
        #expect(await refreshes.started.next() == 2)
        handle.cancel()
    }
}
