import Foundation
import Promises
import Services

/// The scheduler's decisions. Everything here runs on `queue`.
extension SyncScheduler {
    /// What asks for a sync.
    enum Trigger {
        case start, changeQueued, appActive, connectivityBack, refreshDue, signedIn
    }

    /// The state the decisions keep; on `queue` only.
    struct Rules {
        /// Started and not stopped.
        var running = false
        var syncing = false
        /// A trigger came during the sync that runs.
        var again = false
        /// Syncs in a row that failed without the outbox setting a time (no connection, say).
        var failures = 0
        var connectivity: Connectivity = .reachable
        /// The sync due, and whether its time is the API's (or the outbox's) rather than ours.
        var wakeUp: ScheduledWork?
        var wakeUpIsFirm = false
        /// Which wake-up is the current one: a cancelled one that fires anyway is ignored.
        var generation = 0
        var stopWaiters: [@Sendable (()) -> Void] = []
        var followed: [ObservationHandle] = []
        /// What refreshes the watched collections, by registration (``SyncScheduler/refresh(every:_:)``).
        /// Each interval is asked when the next refresh is planned: it may depend on a push.
        var refreshers:
            [UUID: (interval: @Sendable () -> TimeInterval, refresh: @Sendable () -> Promise<Void>)] =
                [:]
        /// The job that runs refreshes after its sync; a refresh asked for while one runs.
        var refreshing = false
        var refreshAgain = false
        var refreshTimer: ScheduledWork?
        /// The last sync found nobody signed in: nothing runs until a sign-in (or the app is
        /// active again, which may have signed in elsewhere).
        var signedOut = false
    }

    func started() {
        guard !rules.running, rules.stopWaiters.isEmpty else { return }
        rules.running = true
        monitor.start { [weak self] connectivity in
            guard let self else { return }
            queue.async { self.connectivityChanged(connectivity) }
        }
        // After what the monitor said at once, which it hands to the queue first.
        queue.async { self.triggered(by: .start) }
    }

    func triggered(by trigger: Trigger) {
        guard rules.running else { return }
        if trigger == .signedIn || trigger == .appActive { rules.signedOut = false }
        guard !rules.signedOut else { return publish(.signedOut) }
        guard rules.connectivity == .reachable else { return publish(.offline) }
        if rules.syncing {
            rules.again = true
            rules.refreshAgain = rules.refreshAgain || trigger != .changeQueued
            return
        }
        switch trigger {
        case .refreshDue:
            runSync(refreshing: true)
        case .changeQueued:
            // A wait already due (a gathering, a backoff) stands: its sync takes the change along.
            if rules.wakeUp == nil { wait(gathering, because: .changesQueued, firm: false) }
        case .appActive:
            if !rules.wakeUpIsFirm { runSync(refreshing: true) }
        case .start, .connectivityBack, .signedIn:
            runSync(refreshing: true)
        }
    }

    func connectivityChanged(_ connectivity: Connectivity) {
        guard rules.running else { return }
        let before = rules.connectivity
        rules.connectivity = connectivity
        switch connectivity {
        case .unreachable:
            cancelWakeUp()
            if !rules.syncing { publish(.offline) }
        case .reachable where before == .unreachable:
            rules.failures = 0
            triggered(by: .connectivityBack)
        case .reachable:
            break
        }
    }

    func stopped(_ resolve: @escaping @Sendable (()) -> Void) {
        if rules.running {
            rules.running = false
            cancelWakeUp()
            monitor.stop()
            rules.followed.removeAll()
            rules.refreshTimer?.cancel()
            rules.refreshTimer = nil
        }
        guard rules.syncing else {
            publish(.stopped)
            return resolve(())
        }
        rules.stopWaiters.append(resolve)
    }

    /// Runs the sync, then, when `refreshing` and collections are watched, their refreshes: the
    /// changes made here go first, and a refresh never runs beside a sync or another refresh.
    private func runSync(refreshing: Bool = false) {
        cancelWakeUp()
        rules.syncing = true
        rules.again = false
        rules.refreshing = refreshing && !rules.refreshers.isEmpty
        rules.refreshAgain = false
        let refreshes = rules.refreshing ? rules.refreshers.values.map(\.refresh) : []
        let running = sync().then(on: .inline) { report -> Promise<OutboxSyncReport> in
            guard !refreshes.isEmpty, report.stoppedBecause == nil else { return .value(report) }
            return when(fulfilled: refreshes.map { $0() }).map(on: .inline) { _ in report }
        }
        // Published once the sync has begun, so that whoever sees "syncing" sees it running.
        publish(.syncing)
        running.whenSettled(on: queue) { [self] result in finished(result) }
    }

    private func finished(_ result: Result<OutboxSyncReport, any Error>) {
        rules.syncing = false
        if rules.refreshing {
            // Refreshed: the next in an interval. Not refreshed (the sync or a refresh failed):
            // again with the sync that follows the backoff.
            if case .success(let report) = result, report.stoppedBecause == nil {
                scheduleRefresh()
            } else {
                rules.refreshAgain = true
            }
        }
        let report = try? result.get()
        guard rules.running else {
            publish(.stopped, report: report)
            let waiters = rules.stopWaiters
            rules.stopWaiters = []
            for resolve in waiters { resolve(()) }
            return
        }
        switch result {
        case .success(let report):
            guard let reason = report.stoppedBecause else {
                // Everything that can go went; what is left waits for the user.
                rules.failures = 0
                publish(.idle, report: report)
                if rules.again || rules.refreshAgain { runSync(refreshing: rules.refreshAgain) }
                return
            }
            failed(reason, retryAt: report.retryAt, report: report)
        case .failure(let error):
            failed(ServiceRequestError(error), retryAt: nil, report: nil)
        }
    }

    /// After a sync that stopped on a failure: the outbox's time for the change it stopped at
    /// (the API's `Retry-After`, or the change's own backoff) when it set one, else the backoff
    /// between syncs; offline, nothing until connectivity comes back.
    private func failed(_ reason: ServiceRequestError, retryAt: Date?, report: OutboxSyncReport?) {
        rules.again = false
        if FailureClass(reason).kind == .signedOut {
            // No backoff: nothing a wait changes. The changes wait, untouched, for the sign-in.
            rules.signedOut = true
            rules.failures = 0
            return publish(.signedOut, report: report)
        }
        if FailureClass(reason).kind == .offline {
            // A monitor that learns by asking says "unreachable" now, through the queue.
            monitor.syncFoundUnreachable()
        }
        guard rules.connectivity == .reachable else { return publish(.offline, report: report) }
        if let retryAt {
            rules.failures = 0
            wait(
                max(0, retryAt.timeIntervalSince(clock.now)), because: .failed(reason), firm: true,
                report: report)
        } else {
            let delay = backoff.delay(beforeRetry: rules.failures)
            rules.failures += 1
            wait(delay, because: .failed(reason), firm: false, report: report)
        }
    }

    private func wait(
        _ seconds: TimeInterval, because reason: SyncSchedulerState.WaitReason, firm: Bool,
        report: OutboxSyncReport? = nil
    ) {
        cancelWakeUp()
        rules.generation += 1
        let generation = rules.generation
        rules.wakeUpIsFirm = firm
        rules.wakeUp = clock.schedule(after: seconds) { [weak self] in
            guard let self else { return }
            queue.async { self.wokeUp(generation) }
        }
        publish(.waiting(until: clock.now.addingTimeInterval(seconds), because: reason), report: report)
    }

    private func wokeUp(_ generation: Int) {
        guard rules.running, generation == rules.generation, rules.wakeUp != nil else { return }
        rules.wakeUp = nil
        guard rules.connectivity == .reachable else { return publish(.offline) }
        runSync(refreshing: rules.refreshAgain)
    }

    /// The next periodic refresh, at the shortest interval asked for; none when nothing is
    /// watched. A refresh that came some other way moves it on.
    func scheduleRefresh() {
        rules.refreshTimer?.cancel()
        rules.refreshTimer = nil
        guard rules.running, let interval = rules.refreshers.values.map({ $0.interval() }).min() else {
            return
        }
        rules.refreshTimer = clock.schedule(after: interval) { [weak self] in
            guard let self else { return }
            queue.async {
                self.rules.refreshTimer = nil
                self.triggered(by: .refreshDue)
            }
        }
    }

    private func cancelWakeUp() {
        rules.wakeUp?.cancel()
        rules.wakeUp = nil
        rules.wakeUpIsFirm = false
        rules.generation += 1
    }
}
