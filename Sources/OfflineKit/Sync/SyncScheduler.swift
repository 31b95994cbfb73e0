public import Foundation
public import Promises
public import Services

/// Runs an outbox's sync by itself, so that changes made offline reach the API without the user
/// or the app asking.
///
/// | when | what it does |
/// | --- | --- |
/// | ``start()`` | syncs at once (changes may wait from an earlier run) |
/// | a change is queued (``changeQueued()``, or one it follows with ``follow(_:)-(Outbox)``) | syncs after a short wait that gathers a burst into one sync |
/// | connectivity comes back (the `ConnectivityMonitor`) | syncs at once, the backoff reset |
/// | the app is active again (``appBecameActive()``) | syncs at once, unless the API asked to wait |
/// | a sync stopped on a failure that may pass (no connection, timeout, 5xx, 429) | syncs again after the backoff: 1 s doubling, full jitter, at most 5 minutes; or at the API's `Retry-After`, when later |
/// | a sync left changes that wait for their time (the outbox's own backoff) | syncs again at that time |
/// | a sync went through everything it can send (what is left is refused, stuck or conflicted) | nothing more until a trigger |
/// | any trigger while a sync runs | one more sync right after it, never a second beside it (after a failure, the backoff's) |
/// | any trigger while connectivity is known lost | nothing: it waits for connectivity |
/// | collections are watched (``refresh(every:_:)``) | each sync of a start, of connectivity back or of the app active is followed by their refreshes; and every interval, a sync and refreshes |
/// | a sync found nobody signed in (a `401` no refresh fixed) | nothing, no backoff, until ``signedIn()``, a sign-in it follows (``follow(_:)-(OAuthCredentials)``) or the app is active again |
/// | ``stop()`` | nothing more; a sync running ends first |
///
/// A monitor that says "reachable" while the API cannot be reached costs one failed sync and a
/// backoff, not a loop. Its state (``state``, ``observe(on:_:)``) says what it does: idle,
/// syncing, waiting until a time and why, offline, signed out, stopped.
///
/// ```swift
/// let scheduler = SyncScheduler(connectivity: PathMonitorConnectivity()) { store.sync() }
/// scheduler.follow(outbox)
/// scheduler.start()
/// // from the app's lifecycle:
/// scheduler.appBecameActive()
/// ```
public final class SyncScheduler: @unchecked Sendable {
    // `@unchecked Sendable` is sound: the mutable state in `Rules` is only touched on `queue`, a
    // serial queue (every entry point hops onto it); what it publishes is in `published`, a
    // `Locked`. The other stored properties are `let`s of `Sendable` types.
    let queue = DispatchQueue(label: "SyncScheduler")
    let sync: @Sendable () -> Promise<OutboxSyncReport>
    let monitor: any ConnectivityMonitor
    let clock: any SyncClock
    let backoff: RetryPolicy
    let gathering: TimeInterval
    /// The decisions' state; on `queue` only.
    var rules = Rules()

    private let published = Locked(Published())

    /// What the scheduler tells: its state, its last report and who follows them.
    private struct Published {
        var state: SyncSchedulerState = .stopped
        var report: OutboxSyncReport?
        var watchers: [UUID: Watcher] = [:]
    }

    private struct Watcher {
        let dispatcher: any Dispatcher
        let handler: @Sendable (SyncSchedulerState) -> Void
    }

    /// The backoff between syncs that failed in a way that may pass: 1 s doubling, full jitter, at
    /// most 5 minutes, never giving up.
    public static var standardBackoff: RetryPolicy {
        .neverGivingUp
    }

    /// Makes a scheduler around `sync`; it does nothing until ``start()``.
    ///
    /// - Parameters:
    ///   - connectivity: Tells when the API can be reached; `AssumeReachable` by default.
    ///   - clock: What it waits with; the system clock by default.
    ///   - backoff: The waits after failed syncs; ``standardBackoff`` by default (its jitter too).
    ///   - gathering: How long it waits after a queued change, so that a burst makes one sync.
    ///   - sync: Sends what waits: an outbox's sync, or a feature's (`FallbackOrdersStore.sync()`).
    public init(
        connectivity: any ConnectivityMonitor = AssumeReachable(), clock: any SyncClock = .system,
        backoff: RetryPolicy = SyncScheduler.standardBackoff, gathering: TimeInterval = 0.2,
        sync: @escaping @Sendable () -> Promise<OutboxSyncReport>
    ) {
        self.monitor = connectivity
        self.clock = clock
        self.backoff = backoff
        self.gathering = max(0, gathering)
        self.sync = sync
    }

    /// What it is doing now.
    public var state: SyncSchedulerState { published.withLock { $0.state } }

    /// What the last sync it ran reported, if one ended.
    public var lastReport: OutboxSyncReport? { published.withLock { $0.report } }

    /// Starts: connectivity is watched, and a sync runs at once.
    public func start() {
        queue.async { self.started() }
    }

    /// A change was queued: a sync follows soon, gathering a burst of changes into one.
    public func changeQueued() {
        queue.async { self.triggered(by: .changeQueued) }
    }

    /// The app is active again (call it from the app's lifecycle): a sync runs at once, unless the
    /// API asked to wait longer.
    public func appBecameActive() {
        queue.async { self.triggered(by: .appActive) }
    }

    /// Someone signed in (call it after `OAuthCredentials/signIn(user:password:)`): a sync that
    /// stopped for want of a sign-in (``SyncSchedulerState/signedOut``) runs again at once.
    public func signedIn() {
        queue.async { self.triggered(by: .signedIn) }
    }

    /// Stops: nothing more is scheduled and connectivity is no longer watched.
    ///
    /// - Returns: A guarantee fulfilled once a sync that was running has ended.
    @discardableResult
    public func stop() -> Guarantee<Void> {
        let (stopped, resolve) = Guarantee<Void>.pending()
        queue.async { self.stopped(resolve) }
        return stopped
    }

    /// Tells `handler` the state now, then every change of it.
    ///
    /// - Parameters:
    ///   - dispatcher: Where `handler` runs, in order.
    ///   - handler: Gets each state.
    /// - Returns: The observation; it ends when cancelled or released.
    public func observe(
        on dispatcher: any Dispatcher, _ handler: @escaping @Sendable (SyncSchedulerState) -> Void
    ) -> ObservationHandle {
        let id = UUID()
        let current = published.withLock { published -> SyncSchedulerState in
            published.watchers[id] = Watcher(dispatcher: dispatcher, handler: handler)
            return published.state
        }
        dispatcher.dispatch { handler(current) }
        return ObservationHandle { [weak self] in
            _ = self?.published.withLock { $0.watchers.removeValue(forKey: id) }
        }
    }

    /// Syncs soon after each change queued in `outbox`, by this process or another writing the
    /// same file (it observes the outbox's table).
    ///
    /// - Parameter outbox: The outbox whose sync this scheduler runs.
    public func follow(_ outbox: Outbox) {
        let handle = outbox.observeQueued(on: queue) { [weak self] in self?.triggered(by: .changeQueued) }
        queue.async { self.rules.followed.append(handle) }
    }

    /// Syncs at once after every sign-in to `credentials`: a sync that stopped for want of one
    /// (``SyncSchedulerState/signedOut``) resumes by itself, as ``signedIn()`` would.
    ///
    /// - Parameter credentials: The sign-in the synced collections' client is made for.
    public func follow(_ credentials: OAuthCredentials) {
        let handle = credentials.observeSignIns { [weak self] _ in self?.signedIn() }
        queue.async { self.rules.followed.append(handle) }
    }

    /// Refreshes a watched collection with `refresh` (such as `{ notes.refresh().asVoid() }`) while
    /// the returned handle is kept: after the sync of every start, return of connectivity and
    /// return of the app (the device's changes go first), and every `interval` seconds; never
    /// while offline, never beside a sync or another refresh; after a failure, with the sync that
    /// follows the backoff.
    ///
    /// - Parameters:
    ///   - interval: The seconds between two refreshes while nothing else refreshed; 60 by default.
    ///   - refresh: Brings the API's changes into the copy.
    /// - Returns: The registration; release or cancel it when the collection is no longer watched.
    public func refresh(every interval: TimeInterval = 60, _ refresh: @escaping @Sendable () -> Promise<Void>)
        -> ObservationHandle
    {
        let every = max(1, interval)
        return register({ every }, refresh)
    }

    /// Refreshes as ``refresh(every:_:)`` does, every `interval` seconds while `live`'s stream is
    /// down, and only every ``LiveRefresh/safetyNet`` seconds while it is live: then the stream
    /// brings other devices' changes, and polling is the safety net. The next refresh is planned
    /// again each time the stream goes live or down.
    ///
    /// - Parameters:
    ///   - interval: The seconds between two refreshes while the stream is down; 60 by default.
    ///   - live: The stream's refresher.
    ///   - refresh: Brings the API's changes into the copy.
    /// - Returns: The registration; release or cancel it when the collection is no longer watched.
    public func refresh(
        every interval: TimeInterval = 60, pushedBy live: LiveRefresh,
        _ refresh: @escaping @Sendable () -> Promise<Void>
    ) -> ObservationHandle {
        let (down, up) = (max(1, interval), max(1, live.safetyNet))
        let registration = register({ [weak live] in live?.isLive == true ? up : down }, refresh)
        let replanned = live.observeLive { [weak self] _ in
            guard let self else { return }
            self.queue.async { self.scheduleRefresh() }
        }
        return ObservationHandle {
            replanned.cancel()
            registration.cancel()
        }
    }

    private func register(
        _ interval: @escaping @Sendable () -> TimeInterval, _ refresh: @escaping @Sendable () -> Promise<Void>
    ) -> ObservationHandle {
        let id = UUID()
        queue.async {
            self.rules.refreshers[id] = (interval, refresh)
            if self.rules.running, self.rules.refreshTimer == nil, !self.rules.syncing {
                self.triggered(by: .refreshDue)
            }
        }
        return ObservationHandle { [weak self] in
            guard let scheduler = self else { return }
            scheduler.queue.async {
                scheduler.rules.refreshers[id] = nil
                if scheduler.rules.refreshers.isEmpty {
                    scheduler.rules.refreshTimer?.cancel()
                    scheduler.rules.refreshTimer = nil
                }
            }
        }
    }

    /// Fulfilled once everything asked of the scheduler before this call has been decided: what
    /// a test waits for before it checks that a trigger changed nothing.
    func decided() -> Guarantee<Void> {
        Guarantee { resolve in queue.async { resolve(()) } }
    }

    /// Publishes a new state and tells the watchers; `lastReport` too, when a sync ended.
    func publish(_ state: SyncSchedulerState, report newReport: OutboxSyncReport? = nil) {
        let watchers = published.withLock { published -> [Watcher] in
            if let newReport { published.report = newReport }
            guard published.state != state else { return [] }
            published.state = state
            return Array(published.watchers.values)
        }
        for watcher in watchers {
            watcher.dispatcher.dispatch { watcher.handler(state) }
        }
    }
}
