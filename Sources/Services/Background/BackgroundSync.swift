public import Foundation
public import Promises

/// Syncs when the system wakes the app in the background, and asks for the next wake each time:
/// the part of background tasks that is the same on every platform, with `BGTaskScheduler` behind
/// ``BackgroundTaskScheduler`` and `BGTask` behind ``BackgroundWake`` (on iOS,
/// `register()`, iOS-only, wires both).
///
/// At each wake it asks for the next one first (a wake that expires still leaves one asked for),
/// resumes the database if the app had suspended it, runs `work` (a sync and a refresh), and
/// tells the system when it is done. When the system ends the wake first, the work is cancelled
/// (a sync stops between changes; what it did not record goes again at the next one, under its
/// key), the wake log written, and the database suspended before the system is told: no lock is
/// held when the app is suspended. Every step is in the ``log``.
///
/// ```swift
/// let background = BackgroundSync(
///     identifier: "com.example.shop.sync", database: database, every: 15 * 60
/// ) {
///     SyncedCollections.sync([store.customers, store.orders]).map { $0.sent.count }
/// }
/// background.register()     // iOS, with `scheduler: BackgroundSync.systemScheduler`, before launch ends
/// background.schedule()     // when the app goes to the background
/// ```
public struct BackgroundSync: Sendable {
    /// The task's identifier, listed in the app's `BGTaskSchedulerPermittedIdentifiers`.
    public let identifier: String
    /// How long after a wake (or the request) the next may come, in seconds, at the earliest.
    public let interval: TimeInterval
    /// The kind of wake asked for.
    public let kind: BackgroundTaskRequest.Kind
    /// What was asked for and what came of it.
    public let log: WakeLog
    let database: Database
    let scheduler: any BackgroundTaskScheduler
    let now: @Sendable () -> Date
    let work: @Sendable () -> Promise<Int>

    /// Makes the helper of one task.
    ///
    /// - Parameters:
    ///   - identifier: The task's identifier.
    ///   - database: The app's database: suspended at expiration, resumed at a wake, and where
    ///     the ``log`` is kept.
    ///   - interval: The earliest time to the next wake, in seconds; 15 minutes by default.
    ///   - kind: The kind of wake; ``BackgroundTaskRequest/Kind/appRefresh`` by default.
    ///   - scheduler: Who takes the requests: `BGTaskScheduler` on iOS (`BackgroundSync.systemScheduler`, iOS-only).
    ///   - now: The clock of the requests and the log.
    ///   - work: What a wake does, such as a sync; its promise gives how many changes were sent.
    ///     It is cancelled when the wake expires.
    public init(
        identifier: String, database: Database, every interval: TimeInterval = 15 * 60,
        kind: BackgroundTaskRequest.Kind = .appRefresh, scheduler: any BackgroundTaskScheduler,
        now: @escaping @Sendable () -> Date = { Date() }, work: @escaping @Sendable () -> Promise<Int>
    ) {
        self.identifier = identifier
        self.database = database
        self.interval = interval
        self.kind = kind
        self.scheduler = scheduler
        self.now = now
        self.work = work
        log = WakeLog(database: database)
    }

    /// Asks the system for the next wake, ``interval`` from now, and logs whether it took it.
    ///
    /// - Returns: A guarantee of whether the system took the request.
    @discardableResult
    public func schedule() -> Guarantee<Bool> {
        let moment = now()
        let request = BackgroundTaskRequest(
            identifier: identifier, earliest: moment.addingTimeInterval(interval), kind: kind)
        let entry: WakeLogEntry
        do {
            try scheduler.submit(request)
            entry = WakeLogEntry(
                task: identifier, event: .asked, at: moment,
                detail: ISO8601DateFormatter().string(from: request.earliest))
        } catch {
            entry = WakeLogEntry(task: identifier, event: .refused, at: moment, detail: "\(error)")
        }
        let taken = entry.event == .asked
        return log.record(entry).recover(on: .inline) { _ in }.map(on: .inline) { taken }
    }

    /// Does one wake's work: the next wake asked for, the database resumed, `work` run, the
    /// system told; at expiration the work cancelled and the database suspended first.
    ///
    /// - Parameter wake: The wake the system gave.
    /// - Returns: A guarantee settled once the system was told, with whether the work finished.
    @discardableResult
    public func run(_ wake: any BackgroundWake) -> Guarantee<Bool> {
        let (log, database, identifier, now) = (log, database, identifier, now)
        let (result, settle) = Guarantee<Bool>.pending()
        // The wake ends once: by the work or by the expiration, whichever comes first; the other
        // then does nothing (the system is told once, and a late expiration suspends nothing).
        let ended = Locked(false)
        @Sendable func end() -> Bool {
            ended.withLock { ended in
                defer { ended = true }
                return !ended
            }
        }
        @Sendable func tell(_ success: Bool) {
            wake.complete(success: success)
            settle(success)
        }
        let wasSuspended = database.isSuspended
        database.resume()
        let schedule = schedule
        let started: Promise<Int> = log.record(WakeLogEntry(task: identifier, event: .woken, at: now()))
            .recover(on: .inline) { _ in }
            .then(on: .inline) { schedule() }
            .asPromise()
            .then(on: .inline) { _ in work() }
        wake.onExpiration {
            guard end() else { return }
            started.cancel()
            log.record(WakeLogEntry(task: identifier, event: .expired, at: now()))
                .recover(on: .inline) { _ in }
                .then(on: .inline) { database.suspend() }
                .done(on: .inline) { tell(false) }
        }
        started.whenSettled(on: .inline) { outcome in
            let entry: WakeLogEntry
            switch outcome {
            case .success(let changes):
                entry = WakeLogEntry(task: identifier, event: .finished, at: now(), changes: changes)
            case .failure(let error) where FailureClass(error).kind == .cancelled:
                return  // cancelled by the expiration, which tells the system
            case .failure(let error):
                entry = WakeLogEntry(
                    task: identifier, event: .failed, at: now(),
                    detail: ServiceRequestError(error).userMessage)
            }
            guard end() else { return }
            log.record(entry).recover(on: .inline) { _ in }
                .then(on: .inline) { wasSuspended ? database.suspend() : Guarantee<Void>.value(()) }
                .done(on: .inline) { tell(entry.event == .finished) }
        }
        return result
    }
}
