import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// A sync the test ends by hand: it counts calls and how many ran at once.
final class ScriptedSync: @unchecked Sendable {
    // `@unchecked Sendable` is sound: every stored property is only touched while holding `lock`.
    private let lock = NSLock()
    private var seals: [Seal<OutboxSyncReport>] = []
    private var running = 0
    private(set) var mostAtOnce = 0

    /// How many syncs were started.
    var calls: Int { lock.withLock { seals.count } }

    func sync() -> Promise<OutboxSyncReport> {
        let (promise, seal) = Promise<OutboxSyncReport>.pending()
        lock.withLock {
            seals.append(seal)
            running += 1
            mostAtOnce = max(mostAtOnce, running)
        }
        return promise
    }

    /// Ends the latest sync with `report`.
    func finish(_ report: OutboxSyncReport = OutboxSyncReport()) {
        lock.withLock { running -= 1 }
        lock.withLock { seals.last }?.fulfill(report)
    }

    /// Ends the latest sync with `error`.
    func fail(_ error: any Error) {
        lock.withLock { running -= 1 }
        lock.withLock { seals.last }?.reject(error)
    }
}

/// A scheduler around a scripted sync on a test clock, and the states it went through.
struct ScheduledSync {
    let clock = TestClock()
    let sync = ScriptedSync()
    let scheduler: SyncScheduler
    let states = DeliveryRecorder<SyncSchedulerState>()
    let observation: ObservationHandle

    /// The longest wait every time, so that the backoff's ceilings can be read off the states.
    init(
        connectivity: any ConnectivityMonitor = AssumeReachable(),
        jitter: @escaping @Sendable (Double) -> Double = { $0 }
    ) {
        let sync = sync
        scheduler = SyncScheduler(
            connectivity: connectivity, clock: clock,
            backoff: RetryPolicy(maximumRetries: .max, baseDelay: 1, maximumDelay: 300, jitter: jitter),
            gathering: 0.2
        ) { sync.sync() }
        let states = states
        observation = scheduler.observe(on: .inline) { states.record($0) }
    }

    /// Waits for the state `condition` describes.
    func reach(
        _ condition: @Sendable (SyncSchedulerState) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> SyncSchedulerState? {
        await states.next(sourceLocation: sourceLocation, where: condition)
    }

    /// Starts it and waits until its first sync, ended by the test, leaves it idle.
    func startedAndIdle() async {
        scheduler.start()
        _ = await reach { $0 == .syncing }
        sync.finish()
        _ = await reach { $0 == .idle }
    }

    /// Waits until every trigger given so far has been decided.
    func decided() async {
        await scheduler.decided().value
    }

    /// Waits until it waits, and gives how long from now, to the millisecond (a `Date` holds
    /// seconds since 2001 in a `Double`, so 0.2 s from now is 0.20000004 s away).
    func waitSeconds(sourceLocation: SourceLocation = #_sourceLocation) async -> TimeInterval? {
        guard case .waiting(let until, _)? = await reach({ $0.isWaiting }, sourceLocation: sourceLocation)
        else { return nil }
        return (until.timeIntervalSince(clock.now) * 1000).rounded() / 1000
    }
}

extension SyncSchedulerState {
    var isWaiting: Bool { if case .waiting = self { true } else { false } }
}

/// A report of a sync that stopped because the API could not be reached.
let offlineReport = OutboxSyncReport(waiting: 2, stoppedBecause: .noNetwork)

@Suite("SyncScheduler: when it syncs")
struct SyncSchedulerTests {
    @Test("started, it syncs at once; a sync that sent everything leaves it idle, with the report")
    func startSyncs() async {
        // Given
        let subject = ScheduledSync()
        // When
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        subject.sync.finish(OutboxSyncReport(waiting: 0))
        // Then
        _ = await subject.reach { $0 == .idle }
        #expect(subject.sync.calls == 1)
        #expect(subject.scheduler.lastReport == OutboxSyncReport(waiting: 0))
        #expect(subject.clock.wakeUps.isEmpty)
    }

    @Test("changes queued in a burst make one sync, after the gathering wait")
    func burstMakesOneSync() async {
        // Given: started and idle
        let subject = ScheduledSync()
        await subject.startedAndIdle()
        // When: three changes
        for _ in 0..<3 { subject.scheduler.changeQueued() }
        let wait = await subject.waitSeconds()
        // Then: one wait of 0.2 s, then one sync
        #expect(wait == 0.2)
        #expect(subject.clock.wakeUps.count == 1)
        subject.clock.advance(0.2)
        _ = await subject.reach { $0 == .syncing }
        subject.sync.finish()
        _ = await subject.reach { $0 == .idle }
        #expect(subject.sync.calls == 2)
    }

    @Test("triggers during a sync make one more sync after it, never one beside it")
    func triggersDuringASyncMakeOneMore() async {
        // Given: a sync running
        let subject = ScheduledSync()
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        // When: every kind of trigger arrives meanwhile
        subject.scheduler.changeQueued()
        subject.scheduler.appBecameActive()
        subject.scheduler.changeQueued()
        subject.sync.finish()
        // Then: exactly one more, right after, and never two at once
        _ = await subject.reach { $0 == .idle }
        _ = await subject.reach { $0 == .syncing }
        #expect(subject.sync.calls == 2)
        subject.sync.finish()
        _ = await subject.reach { $0 == .idle }
        #expect(subject.sync.calls == 2)
        #expect(subject.sync.mostAtOnce == 1)
    }

    @Test("failed syncs wait 1, 2, 4, ... seconds, never more than 5 minutes, and always sync again")
    func backoffBounds() async {
        // Given: the longest wait each time, and an API that cannot be reached
        let subject = ScheduledSync()
        subject.scheduler.start()
        var waits: [TimeInterval] = []
        // When: eleven syncs fail in a row
        for _ in 0..<11 {
            _ = await subject.reach { $0 == .syncing }
            subject.sync.fail(ServiceRequestError.noNetwork)
            guard let wait = await subject.waitSeconds() else { return }
            waits.append(wait)
            subject.clock.advance(wait)
        }
        // Then
        #expect(waits == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300])
        _ = await subject.reach { $0 == .syncing }
        #expect(subject.sync.calls == 12)
    }

    @Test("the backoff's waits are drawn between 0 and the ceiling (full jitter)")
    func backoffJitter() async {
        // Given: a jitter that picks outside the range, then inside it
        let picks = Picks([5, -1, 0.25])
        let subject = ScheduledSync(jitter: { ceiling in picks.next() * ceiling })
        subject.scheduler.start()
        var waits: [TimeInterval] = []
        // When
        for _ in 0..<3 {
            _ = await subject.reach { $0 == .syncing }
            subject.sync.fail(ServiceRequestError.timedOut)
            guard let wait = await subject.waitSeconds() else { return }
            waits.append(wait)
            subject.clock.advance(wait)
        }
        // Then: kept within [0, ceiling]
        #expect(waits == [1, 0, 1])
    }

    @Test("a Retry-After the API sent is waited for, and the app coming back does not bring it forward")
    func retryAfterHonoured() async {
        // Given
        let subject = ScheduledSync()
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        // When: the API answered 429 asking for two minutes
        let until = subject.clock.now.addingTimeInterval(120)
        subject.sync.finish(OutboxSyncReport(waiting: 1, stoppedBecause: .httpStatus(429), retryAt: until))
        // Then
        #expect(await subject.waitSeconds() == 120)
        subject.scheduler.appBecameActive()
        subject.scheduler.changeQueued()
        await subject.decided()
        subject.clock.advance(119)
        await subject.decided()
        #expect(subject.clock.wakeUps == [until])
        #expect(subject.sync.calls == 1)
        subject.clock.advance(1)
        _ = await subject.reach { $0 == .syncing }
        #expect(subject.sync.calls == 2)
    }

    @Test("a sync that failed outright (the database) is tried again after the backoff")
    func resumesAfterAnError() async {
        // Given
        let subject = ScheduledSync()
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        // When
        subject.sync.fail(DatabaseError(kind: .busy, message: "locked"))
        let wait = await subject.waitSeconds()
        subject.clock.advance(wait ?? 0)
        // Then
        #expect(wait == 1)
        _ = await subject.reach { $0 == .syncing }
        #expect(subject.sync.calls == 2)
    }

    @Test("when all that is left waits for the user (refused, conflicted), it stays idle")
    func heldChangesLeaveItIdle() async {
        // Given
        let subject = ScheduledSync()
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        // When: the sync went through everything it could; two changes wait behind a refused one
        subject.sync.finish(OutboxSyncReport(refused: [], waiting: 2))
        // Then: nothing scheduled
        _ = await subject.reach { $0 == .idle }
        #expect(subject.clock.wakeUps.isEmpty)
        subject.clock.advance(3600)
        await subject.decided()
        #expect(subject.sync.calls == 1)
    }

    @Test("nothing is sent while connectivity is known lost; it syncs as soon as it comes back")
    func nothingWhileOffline() async {
        // Given: offline from the start
        let connectivity = ManualConnectivity(.unreachable)
        let subject = ScheduledSync(connectivity: connectivity)
        subject.scheduler.start()
        _ = await subject.reach { $0 == .offline }
        // When: changes are queued and the app comes back
        subject.scheduler.changeQueued()
        subject.scheduler.appBecameActive()
        subject.clock.advance(3600)
        await subject.decided()
        // Then: nothing, until connectivity returns
        #expect(subject.sync.calls == 0)
        #expect(subject.clock.wakeUps.isEmpty)
        connectivity.set(.reachable)
        _ = await subject.reach { $0 == .syncing }
        #expect(subject.sync.calls == 1)
    }

    @Test("a state is told once: triggers that leave it as it is tell the watchers nothing")
    func stateToldOnce() async {
        // Given: offline from the start
        let subject = ScheduledSync(connectivity: ManualConnectivity(.unreachable))
        subject.scheduler.start()
        _ = await subject.reach { $0 == .offline }
        // When: triggers that each find it offline
        subject.scheduler.changeQueued()
        subject.scheduler.appBecameActive()
        subject.scheduler.signedIn()
        await subject.decided()
        // Then
        #expect(subject.states.all == [.stopped, .offline])
    }

    @Test("connectivity lost while waiting cancels the wait; back, the backoff starts again from 1 s")
    func connectivityLostWhileWaiting() async {
        // Given: two failed syncs, waiting 2 s
        let connectivity = ManualConnectivity(.reachable)
        let subject = ScheduledSync(connectivity: connectivity)
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        subject.sync.fail(ServiceRequestError.noNetwork)
        subject.clock.advance(await subject.waitSeconds() ?? 0)
        _ = await subject.reach { $0 == .syncing }
        subject.sync.fail(ServiceRequestError.noNetwork)
        #expect(await subject.waitSeconds() == 2)
        // When
        connectivity.set(.unreachable)
        _ = await subject.reach { $0 == .offline }
        #expect(subject.clock.wakeUps.isEmpty)
        connectivity.set(.reachable)
        // Then
        _ = await subject.reach { $0 == .syncing }
        subject.sync.fail(ServiceRequestError.noNetwork)
        #expect(await subject.waitSeconds() == 1)
    }

    @Test("a sync that fails after connectivity went away during it waits for connectivity, not a backoff")
    func failsAfterConnectivityWentAway() async {
        // Given: a sync running
        let connectivity = ManualConnectivity(.reachable)
        let subject = ScheduledSync(connectivity: connectivity)
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        // When: connectivity goes, then the sync fails
        connectivity.set(.unreachable)
        await subject.decided()
        subject.sync.fail(ServiceRequestError.noNetwork)
        // Then
        _ = await subject.reach { $0 == .offline }
        await subject.decided()
        #expect(subject.clock.wakeUps.isEmpty)
        #expect(subject.scheduler.state == .offline)
    }

    @Test(
        "a monitor that says reachable while the API is not costs one failed sync and a backoff, not a loop")
    func reachableButNotAnswering() async {
        // Given
        let subject = ScheduledSync(connectivity: ManualConnectivity(.reachable))
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        // When
        subject.sync.fail(ServiceRequestError.noNetwork)
        // Then
        #expect(await subject.waitSeconds() == 1)
        #expect(subject.sync.calls == 1)
    }

    @Test("start() while started, or while a stop waits for its sync, changes nothing")
    func startWhileStartedOrStopping() async {
        // Given: started, its first sync running
        let subject = ScheduledSync()
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        // When: started again
        subject.scheduler.start()
        await subject.decided()
        subject.sync.finish()
        _ = await subject.reach { $0 == .idle }
        await subject.decided()
        // Then: no second sync
        #expect(subject.sync.calls == 1)

        // When: a sync running, stopped, and started before that sync ends
        subject.scheduler.appBecameActive()
        _ = await subject.reach { $0 == .syncing }
        let stopped = subject.scheduler.stop()
        subject.scheduler.start()
        subject.sync.finish()
        // Then: the stop
        _ = await PromiseExpectations.value(of: stopped.asPromise())
        await subject.decided()
        #expect(subject.sync.calls == 2)
        #expect(subject.scheduler.state == .stopped)
    }

    @Test("the app active again during a backoff syncs at once, and the backoff's wake-up is dropped")
    func appActiveDuringBackoff() async {
        // Given: a failed sync, waiting 1 s
        let subject = ScheduledSync()
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        subject.sync.fail(ServiceRequestError.noNetwork)
        #expect(await subject.waitSeconds() == 1)

        // When
        subject.scheduler.appBecameActive()
        _ = await subject.reach { $0 == .syncing }
        let plannedDuringSync = subject.clock.wakeUps
        subject.sync.finish()
        _ = await subject.reach { $0 == .idle }
        subject.clock.advance(1)
        await subject.decided()

        // Then: two syncs, none when the dropped wait would have ended
        #expect(plannedDuringSync.isEmpty)
        #expect(subject.sync.calls == 2)
        #expect(subject.scheduler.state == .idle)
    }

    @Test("stop() leaves nothing behind: no wait, no refresh planned, no monitor, no sign-in followed")
    func stopLeavesNothingBehind() async {
        // Given: a refresh planned, a backoff waited for, a monitor and a sign-in followed
        let monitor = CountedConnectivity()
        let subject = ScheduledSync(connectivity: monitor)
        let credentials = OAuthCredentials(tokenURL: URL(fileURLWithPath: "/nowhere/oauth/token"))
        subject.scheduler.follow(credentials)
        let refresh = subject.scheduler.refresh(every: 30) { .value(()) }
        await subject.startedAndIdle()
        subject.scheduler.appBecameActive()
        _ = await subject.reach { $0 == .syncing }
        subject.sync.fail(ServiceRequestError.noNetwork)
        _ = await subject.waitSeconds()
        let plannedBefore = subject.clock.wakeUps.count

        // When
        _ = await PromiseExpectations.value(of: subject.scheduler.stop().asPromise())

        // Then
        #expect(plannedBefore == 2)
        #expect(subject.scheduler.state == .stopped)
        #expect(subject.clock.wakeUps.isEmpty)
        #expect(monitor.stops.withLock { $0 } == 1)
        #expect(credentials.state.withLock { $0.signInObservers.isEmpty })
        refresh.cancel()
    }

    @Test("stop() ends scheduling: a running sync ends first, then nothing more runs")
    func stopEndsIt() async {
        // Given: a sync running, and a change queued meanwhile
        let subject = ScheduledSync()
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        subject.scheduler.changeQueued()
        // When
        let stopped = subject.scheduler.stop()
        subject.sync.fail(ServiceRequestError.noNetwork)
        // Then
        _ = await PromiseExpectations.value(of: stopped.asPromise())
        #expect(subject.scheduler.state == .stopped)
        subject.scheduler.changeQueued()
        subject.scheduler.appBecameActive()
        subject.clock.advance(3600)
        await subject.decided()
        #expect(subject.clock.wakeUps.isEmpty)
        #expect(subject.sync.calls == 1)
    }
}

/// A monitor that says "reachable" when started, and counts its stops.
final class CountedConnectivity: ConnectivityMonitor {
    let stops = Locked(0)

    func start(_ onChange: @escaping @Sendable (Connectivity) -> Void) { onChange(.reachable) }

    func stop() { stops.withLock { $0 += 1 } }
}

/// Answers given in turn.
final class Picks: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `values` is only touched while holding `lock`.
    private let lock = NSLock()
    private var values: [Double]

    init(_ values: [Double]) { self.values = values }

    func next() -> Double {
        lock.withLock { values.isEmpty ? 1 : values.removeFirst() }
    }
}
