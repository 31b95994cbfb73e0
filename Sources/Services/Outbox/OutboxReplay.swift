import Dispatch
import Foundation
import Promises

/// One run of ``Outbox/sync(with:delivered:)``: the waiting entries sent one by one, in order.
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

    /// What the next entry after a point is, and whether it may be sent now.
    enum Next: Sendable {
        case end
        /// Damaged, or waiting behind a held entry of its resource: passed over.
        case passOver(OutboxEntry)
        /// Not to be sent before `until`; the last failure had `status`.
        case notYet(OutboxEntry, until: Date, status: Int?)
        /// Marked attempted under this sync's claim, in the transaction that read it: to send.
        case send(OutboxEntry)
        /// Another sync holds the claim: this one sends nothing.
        case elsewhere
    }

    /// Sends the waiting entries one at a time. Each step starts from a callback on a serial queue
    /// of its own, so a long outbox never deepens the stack, and nothing waits on Swift
    /// concurrency's small thread pool (which a busy app may have blocked). Cancelling the promise
    /// stops before the next entry.
    func run() -> Promise<OutboxSyncReport> {
        let (promise, seal) = Promise<OutboxSyncReport>.pending()
        // Cancellable, so that cancelling a sync reaches this promise; each step checks it.
        seal.setCancellationHandler {}
        let queue = DispatchQueue(label: "Outbox \(feature)")
        let run = Run(promise: promise, seal: seal, queue: queue)
        // Signed out: nothing is sent (without a token every change would be a 401); the changes
        // wait, untouched, for the sign-in.
        if let credentials = client.credentials, credentials.account == nil {
            var report = OutboxSyncReport()
            report.stoppedBecause = .httpStatus(401)
            queue.async { [report] in finish(report, run) }
            return promise
        }
        queue.async { step(after: 0, OutboxSyncReport(), run) }
        return promise
    }

    /// The promise of one run, its seal, and the queue its steps start on.
    struct Run: Sendable {
        let promise: Promise<OutboxSyncReport>
        let seal: Seal<OutboxSyncReport>
        let queue: DispatchQueue

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

    /// Sends the first waiting entry after `last`, or ends the run when there is none.
    ///
    /// The next entry is read, and marked attempted under this sync's claim, in one transaction:
    /// read in one and marked in a later one, another process could deliver it in between (or an
    /// edit change it), and this one would send what it read, a second time.
    func step(after last: Int64, _ report: OutboxSyncReport, _ run: Run) {
        guard run.promise.isPending else { return }  // cancelled
        let (feature, claim, now, prepare) = (feature, claim, now, prepare)
        let account = client.credentials?.account
        let next = database.write { connection in
            try Self.nextMarked(
                feature, after: last, now: now(), account: account, claim, prepare: prepare, connection)
        }
        run.whenSettled(next) { next in
            switch next {
            case .failure(let error): run.fail(error)
            case .success(let next): go(to: next, report, run)
            }
        }
    }

    /// Goes on with `next`, an entry to send marked attempted already.
    func go(to next: Next, _ report: OutboxSyncReport, _ run: Run) {
        guard run.promise.isPending else { return }  // cancelled
        var report = report
        switch next {
        case .end:
            finish(report, run)
        case .passOver(let entry):
            step(after: entry.sequence, report, run)
        case .notYet(_, let until, let status):
            report.stoppedBecause = status.map(ServiceRequestError.httpStatus) ?? .unknownError
            report.retryAt = until
            finish(report, run)
        case .send(let entry):
            send(entry, report, run)
        case .elsewhere:
            stopSendingElsewhere(report, run)
        }
    }

    /// Sends `entry`, marked attempted (possibly arrived) in the transaction that read it, so that
    /// no later edit is merged into a change the API may have applied.
    private func send(_ entry: OutboxEntry, _ report: OutboxSyncReport, _ run: Run) {
        // Another account signed in since the entry was read: it waits for its own.
        if let account = entry.account, client.credentials?.account != account {
            var report = report
            report.stoppedBecause = .httpStatus(401)
            return finish(report, run)
        }
        let sent = client.exchange(
            entry.method, entry.path, body: entry.body, headers: Self.headers(of: entry))
        run.whenSettled(sent) { answer in
            switch answer.map(Outcome.delivered) {
            case .success(let outcome): handle(outcome, entry, report, run)
            case .failure(let error): handle(Self.outcome(of: error, for: entry), entry, report, run)
            }
        }
    }

    /// Completes a delivered entry and, in the same transaction, finds the next one and marks it
    /// attempted when it is to be sent: one commit per change, not two.
    func complete(_ entry: OutboxEntry, answer: Data, _ report: OutboxSyncReport, _ run: Run) {
        let (feature, delivered, now, claim, prepare) = (feature, delivered, now, claim, prepare)
        let completed = database.write { connection -> (OutboxTable.Completion, Next?) in
            let completion = try OutboxTable.complete(
                entry, answer: answer, feature: feature, connection, delivered)
            guard run.promise.isPending else { return (completion, nil) }  // cancelled: no next
            let next = try Self.nextMarked(
                feature, after: entry.sequence, now: now(), account: client.credentials?.account, claim,
                prepare: prepare, connection)
            return (completion, next)
        }
        run.whenSettled(completed) { completion in
            var report = report
            switch completion {
            case .success((let completion, let next)):
                if case .done(let newID) = completion {
                    report.sent.append(entry)
                    report.newIDs[entry.localID] = newID
                }
                guard let next else { return }
                go(to: next, report, run)
            case .failure(let error as DatabaseError):
                report.stoppedBecause = ServiceRequestError(error)
                finish(report, run)
            case .failure(let error) where FailureClass(error).kind == .offline:
                // The 2xx was not the API's answer (the feature found no resource in it): nothing
                // was delivered, the change waits under its key, and no failure is counted.
                report.stoppedBecause = ServiceRequestError(error)
                finish(report, run)
            case .failure(let error):
                // The API took the change but the feature cannot apply its answer (an identifier
                // another change here uses, say): show it refused, so the user sees it; a retry
                // sends the same key, and the API answers the same.
                refuse(entry, "The API's answer could not be used: \(Self.describe(error))", report, run)
            }
        }
    }

    func handle(_ outcome: Outcome, _ entry: OutboxEntry, _ report: OutboxSyncReport, _ run: Run) {
        var report = report
        switch outcome {
        case .delivered(let answer):
            complete(entry, answer: answer, report, run)
        case .refused(let reason):
            refuse(entry, reason, report, run)
        case .stop(let reason):
            report.stoppedBecause = reason
            finish(report, run)
        case .later(let reason, let status, let seconds):
            let moment = now()
            let until = moment.addingTimeInterval(seconds)
            run.whenSettled(
                database.write {
                    try OutboxTable.postpone(entry, wait: seconds, from: moment, status: status, $0)
                }
            ) {
                [report] written in
                if case .failure(let error) = written { return run.fail(error) }
                var report = report
                report.stoppedBecause = reason
                report.retryAt = until
                finish(report, run)
            }
        case .failed(let reason):
            fail(entry, reason, report, run)
        case .conflict(let theirs, let deletedOnServer):
            conflict(entry, theirs: theirs, deletedOnServer: deletedOnServer, report, run)
        }
    }

    /// Gives the claim up, counts what still waits and fulfills the run.
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
                run.seal.fulfill(report)
            case .failure(let error):
                run.fail(error)
            }
        }
    }
}
