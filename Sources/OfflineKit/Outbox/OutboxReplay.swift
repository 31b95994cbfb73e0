import Dispatch
import Foundation
import Promises
import Services

/// One run of ``Outbox/sync(with:delivered:)``: the waiting entries sent in order, up to
/// ``inFlight`` at once.
///
/// Invariants, kept by reading and marking entries in one transaction (``fill(_:_:ending:)``):
/// never two entries of one resource at once (a later one is behind the one in flight,
/// ``OutboxTable/isBehind(_:_:_:)``); never a change naming a resource whose create is in flight
/// (its preparation passes it over); each entry marked attempted under this sync's claim before
/// it leaves. A failure that stops the sync stops new sends; the ones in flight finish and are
/// recorded.
struct OutboxReplay: Sendable {
    let feature: String
    let database: Database
    let client: APIClient
    let delivered: Outbox.Delivery
    /// The feature's merge rule, tried before the field-by-field merge.
    let merge: Outbox.MergeRule?
    /// When a failed entry goes again, and how many failures in a row make it stuck.
    let retry: RetryPolicy
    let now: @Sendable () -> Date
    /// Taken before each change is sent, so that one sync sends at a time across processes.
    let claim: OutboxClaim
    /// Readies each entry for sending, or says it waits for a resource it names.
    var prepare: Outbox.Preparation?
    /// How many entries may be sent and not yet answered at once; 1 sends one at a time.
    var inFlight = 1

    /// What the next entry after a point is, and whether it may be sent now.
    enum Next: Sendable {
        case end
        /// Damaged, held, in flight, or waiting behind another entry of its resource: passed over.
        case passOver(OutboxEntry)
        /// Not to be sent before `until`; the last failure had `status`.
        case notYet(OutboxEntry, until: Date, status: Int?)
        /// Ready to be sent (and to be marked attempted, in the transaction that read it).
        case send(OutboxEntry)
    }

    /// Sends the waiting entries. Each step starts from a callback on a serial queue of its own,
    /// so a long outbox never deepens the stack, and nothing waits on Swift concurrency's small
    /// thread pool (which a busy app may have blocked). Cancelling the promise stops new sends.
    func run() -> Promise<OutboxSyncReport> {
        let (promise, seal) = Promise<OutboxSyncReport>.pending()
        // Cancellable, so that cancelling a sync reaches this promise; each step checks it.
        seal.setCancellationHandler {}
        let queue = DispatchQueue(label: "Outbox \(feature)")
        // The sign-in, read once, here, outside any transaction (a keychain read may block): the
        // run's fills pick by it; each send checks it again, outside the transactions too.
        let account = client.credentials?.account
        let run = Run(promise: promise, seal: seal, queue: queue, window: Locked(Window()), account: account)
        // Signed out: nothing is sent (without a token every change would be a 401); the changes
        // wait, untouched, for the sign-in.
        if client.credentials != nil, account == nil {
            run.window.withLock {
                $0.report.stoppedBecause = .httpStatus(401)
                $0.stopping = true
            }
        }
        queue.async { pump(run) }
        return promise
    }

    /// The promise of one run, its seal, the queue its steps start on, and what it is sending.
    struct Run: Sendable {
        let promise: Promise<OutboxSyncReport>
        let seal: Seal<OutboxSyncReport>
        let queue: DispatchQueue
        let window: Locked<Window>
        /// The account signed in when the run started: the one whose changes it picks.
        let account: String?

        /// Calls `body` on the run's queue with how `promise` settled.
        func whenSettled<Value>(
            _ promise: Promise<Value>, _ body: @escaping @Sendable (Result<Value, any Error>) -> Void
        ) {
            promise.whenSettled(on: queue, body)
        }

        func fail(_ error: any Error) {
            seal.reject(ServiceRequestError(error))
        }
    }

    /// Sends `entry`, marked attempted (possibly arrived) in the transaction that read it, so that
    /// no later edit is merged into a change the API may have applied.
    func send(_ entry: OutboxEntry, _ run: Run) {
        // Another account signed in since the entry was read: it waits for its own.
        if let account = entry.account, client.credentials?.account != account {
            return done(entry, stopping: true, run) { $0.stop(.httpStatus(401)) }
        }
        let sent = client.exchange(
            entry.method, entry.path, body: entry.body, headers: Self.headers(of: entry))
        run.whenSettled(sent) { answer in
            switch answer.map(Outcome.delivered) {
            case .success(let outcome):
                handle(outcome, entry, run)
            case .failure(let error) where FailureClass(error).neverLeft && !entry.attemptedBefore:
                // No connection was made: the change never left, and later edits may merge into it.
                run.whenSettled(database.write { try OutboxTable.markNeverSent(entry, $0) }) { written in
                    if case .failure(let failure) = written { return run.fail(failure) }
                    handle(Self.outcome(of: error, for: entry), entry, run)
                }
            case .failure(let error):
                handle(Self.outcome(of: error, for: entry), entry, run)
            }
        }
    }

    /// Completes a delivered entry and, in the same transaction, reads and marks the next ones the
    /// window has room for: one commit per change, not two.
    func complete(_ entry: OutboxEntry, answer: Data, _ run: Run) {
        let (feature, delivered, claim) = (feature, delivered, claim)
        run.window.withLock { $0.fills += 1 }
        let completed = database.write { connection -> (picked: [OutboxEntry], waiting: Int?) in
            let completion = try OutboxTable.complete(
                entry, answer: answer, feature: feature, connection, delivered)
            let picked = try fill(run, connection, ending: entry) { report in
                guard case .done(let newID) = completion else { return }
                report.sent.append(entry)
                report.newIDs[entry.localID] = newID
            }
            // The run's last transaction (nothing picked, in flight or filling but this): the
            // claim is given up and what waits counted here, not in a transaction of their own.
            guard picked.isEmpty, run.window.withLock({ $0.isLast }) else { return (picked, nil) }
            try claim.release(connection)
            return (picked, try OutboxTable.waiting(feature, connection))
        }
        run.whenSettled(completed) { completed in
            let last = run.window.withLock { window -> OutboxSyncReport? in
                window.fills -= 1
                guard case .success(let (_, waiting?)) = completed, !window.finished else { return nil }
                window.finished = true
                var report = window.report
                report.waiting = waiting
                return report
            }
            if let last { return settle(last, run) }
            switch completed {
            case .success(let (picked, _)):
                start(picked, run)
            case .failure(let error as DatabaseError):
                done(entry, stopping: true, run) { $0.stop(ServiceRequestError(error)) }
            case .failure(let error as UnusableAnswer):
                // The API's own answer, without what completes the change: a failure, counted.
                fail(entry, .decodingFailed(type: "answer", reason: error.reason), run, saying: error.reason)
            case .failure(let error) where FailureClass(error).kind == .offline:
                // The 2xx was not the API's answer (the feature found no resource in it): nothing
                // was delivered, the change waits under its key, and no failure is counted.
                done(entry, stopping: true, run) { $0.stop(ServiceRequestError(error)) }
            case .failure(let error):
                // The API took the change but the feature cannot apply its answer (an identifier
                // another change here uses, say): show it refused, so the user sees it; a retry
                // sends the same key, and the API answers the same.
                refuse(entry, "The API's answer could not be used: \(Self.describe(error))", run)
            }
        }
    }

    func handle(_ outcome: Outcome, _ entry: OutboxEntry, _ run: Run) {
        switch outcome {
        case .delivered(let answer):
            complete(entry, answer: answer, run)
        case .refused(let reason):
            refuse(entry, reason, run)
        case .stop(let reason):
            done(entry, stopping: true, run) { $0.stop(reason) }
        case .later(let reason, let status, let seconds):
            let moment = now()
            let until = moment.addingTimeInterval(seconds)
            run.whenSettled(
                database.write {
                    try OutboxTable.postpone(entry, wait: seconds, from: moment, status: status, $0)
                }
            ) { written in
                if case .failure(let error) = written { return run.fail(error) }
                done(entry, stopping: true, run) { $0.stop(reason, retryAt: until) }
            }
        case .failed(let reason):
            fail(entry, reason, run)
        case .conflict(let theirs, let deletedOnServer):
            conflict(entry, theirs: theirs, deletedOnServer: deletedOnServer, run)
        }
    }

    /// Gives the claim up, counts what still waits and settles the run with `report`.
    func finish(_ report: OutboxSyncReport, _ run: Run) {
        let (feature, claim) = (feature, claim)
        let waiting = database.write { connection in
            try claim.release(connection)
            return try OutboxTable.waiting(feature, connection)
        }
        run.whenSettled(waiting) { waiting in
            switch waiting {
            case .success(let count):
                var report = report
                report.waiting = count
                settle(report, run)
            case .failure(let error):
                run.fail(error)
            }
        }
    }

    /// Fulfills the run with `report`, its lists in the order the changes were queued (answers
    /// come in any order).
    func settle(_ report: OutboxSyncReport, _ run: Run) {
        run.seal.fulfill(report.inQueueOrder)
    }
}

extension OutboxSyncReport {
    /// The first reason the sync stopped for, and when it may go again.
    mutating func stop(_ reason: ServiceRequestError, retryAt: Date? = nil) {
        stoppedBecause = stoppedBecause ?? reason
        self.retryAt = [self.retryAt, retryAt].compactMap { $0 }.min()
    }

    /// The same report, each list in the order its entries were queued.
    var inQueueOrder: OutboxSyncReport {
        var report = self
        for list in [\OutboxSyncReport.sent, \.refused, \.stuck, \.conflicted, \.merged] {
            report[keyPath: list].sort { $0.sequence < $1.sequence }
        }
        return report
    }
}
