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
    /// Sends an entry another way than as a JSON request (a file's upload), answering with the
    /// body the API's answer would have; `nil` sends through `client`.
    var transport: Outbox.Transport?
    /// Where the changes handed to a transfer service wait for their answers; `nil` when the
    /// outbox hands none off (one handed off all the same is taken back and sent here).
    var spool: TransferSpool?

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
        // A run that fails may not have given its claim up (the write that does failed): the next
        // run of this process takes it at once, rather than wait a lease.
        let claim = claim
        promise.whenSettled(on: .inline) { if case .failure = $0 { claim.leave() } }
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
        let sent =
            spooledAnswer(to: entry)
            ?? transport.map { transport in
                // The claim is renewed as the transfer moves on: one upload may outlast a lease.
                let (database, claim, now) = (database, claim, now)
                return transport(entry) { _ = database.write { try claim.renew(at: now(), $0) } }
            }
            ?? client.exchange(entry.method, entry.path, body: entry.body, headers: Self.headers(of: entry))
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

// MARK: - The window: what a run has in flight, and the pump

/// The entries a run has in flight, and how it reads the next ones: all of a run's state, behind
/// one lock, read and changed in the transactions that mark entries and on the run's queue.
extension OutboxReplay {
    /// What a run has sent, is sending, and has read.
    struct Window: Sendable {
        var report = OutboxSyncReport()
        /// The entries sent and not yet recorded, by sequence.
        var sending: Set<Int64> = []
        /// The last entry read.
        var cursor: Int64 = 0
        /// The first entry passed over while others were in flight (behind one of its resource,
        /// or naming a resource whose create was): read again once one of them is recorded.
        var deferred: Int64?
        /// No new entry is sent: a failure stopped the sync, another sync holds the claim, or the
        /// run was cancelled. Those in flight finish.
        var stopping = false
        /// Transactions under way that may start entries: the run ends only when none is.
        var fills = 0
        /// Set once, when the run is about to settle.
        var finished = false
        /// Whether an entry's turn ended without stopping the sync: until then one entry goes
        /// alone, so that an API that is down, failing or refusing the sign-in costs one request,
        /// not a window of them.
        var opened = false

        /// Whether the transaction under way is the run's last: nothing in flight, no other
        /// transaction that may start an entry, and the run not settled. Asked inside it, after
        /// its fill picked nothing.
        var isLast: Bool {
            sending.isEmpty && fills == 1 && !finished
        }

        /// How many entries may be in flight now, of the run's `limit`.
        func room(of limit: Int) -> Int {
            opened ? limit : 1
        }

        /// Whether another entry may start now, of the run's `limit`: the one rule the run's
        /// pump and its transactions both ask. A `cancelled` run stops first.
        mutating func admits(_ limit: Int, cancelled: Bool) -> Bool {
            if cancelled { stopping = true }
            return !stopping && sending.count < room(of: limit)
        }

        /// Takes `entry` out of the window with what `record` writes in the report; the entries
        /// passed over while it was in flight (or, `again`, itself) are read again.
        mutating func end(
            _ entry: OutboxEntry, again: Bool, stopping: Bool, _ record: (inout OutboxSyncReport) -> Void
        ) {
            sending.remove(entry.sequence)
            record(&report)
            self.stopping = self.stopping || stopping
            opened = opened || !stopping
            let rewind = [again ? entry.sequence - 1 : nil, deferred.map { $0 - 1 }].compactMap { $0 }.min()
            if let rewind, rewind < cursor { cursor = rewind }
            deferred = nil
        }
    }

    /// Starts as many entries as the window has room for, read and marked in one transaction; ends
    /// the run when nothing is in flight and nothing more may go.
    func pump(_ run: Run) {
        let inFlight = inFlight
        let room = run.window.withLock { window -> Bool in
            guard window.admits(inFlight, cancelled: !run.promise.isPending) else { return false }
            window.fills += 1
            return true
        }
        guard room else { return finishIfIdle(run) }
        let picked = database.write { connection in try fill(run, connection) }
        run.whenSettled(picked) { picked in
            run.window.withLock { $0.fills -= 1 }
            switch picked {
            case .success(let entries): start(entries, run)
            case .failure(let error): run.fail(error)
            }
        }
    }

    /// Sends `entries`, or ends the run when there are none and nothing is in flight.
    func start(_ entries: [OutboxEntry], _ run: Run) {
        for entry in entries { send(entry, run) }
        finishIfIdle(run)
    }

    /// Ends `entry`'s turn (see ``Window/end(_:again:stopping:_:)``), then fills the window.
    func done(
        _ entry: OutboxEntry, again: Bool = false, stopping: Bool = false, _ run: Run,
        _ record: (inout OutboxSyncReport) -> Void = { _ in }
    ) {
        run.window.withLock { $0.end(entry, again: again, stopping: stopping, record) }
        pump(run)
    }

    /// Settles the run when nothing is in flight and no transaction may start more.
    func finishIfIdle(_ run: Run) {
        let report = run.window.withLock { window -> OutboxSyncReport? in
            guard window.sending.isEmpty, window.fills == 0, !window.finished else { return nil }
            window.finished = true
            return window.report
        }
        if let report { finish(report, run) }
    }

    /// In the caller's write transaction: ends `ending`'s turn (recorded by `record`), then reads
    /// the entries after the cursor and marks, under the claim, as many as the window has room
    /// for. The window changes only if all of it succeeds.
    func fill(
        _ run: Run, _ connection: Connection, ending: OutboxEntry? = nil,
        _ record: (inout OutboxSyncReport) -> Void = { _ in }
    ) throws -> [OutboxEntry] {
        try run.window.withLock { window in
            var next = window
            if let ending { next.end(ending, again: false, stopping: false, record) }
            let picked = try pick(&next, run, connection)
            window = next
            return picked
        }
    }

    /// The entries to send now, each marked attempted; `window`'s cursor, deferral and stop moved
    /// on as they were read.
    private func pick(_ window: inout Window, _ run: Run, _ connection: Connection) throws -> [OutboxEntry] {
        var picked: [OutboxEntry] = []
        // Read when the run started, never in this transaction.
        let account = run.account
        while window.admits(inFlight, cancelled: !run.promise.isPending) {
            let moment = now()
            let next = try Self.next(
                feature, after: window.cursor, now: moment, account: account, skipping: window.sending,
                prepare: prepare, spool: spool, connection)
            switch next {
            case .end:
                return picked
            case .passOver(let entry):
                if !window.sending.isEmpty, !window.sending.contains(entry.sequence) {
                    window.deferred = min(window.deferred ?? entry.sequence, entry.sequence)
                }
                window.cursor = entry.sequence
            case .notYet(_, let until, let status):
                window.report.stop(
                    status.map(ServiceRequestError.httpStatus) ?? .unknownError, retryAt: until)
                window.stopping = true
            case .send(let entry):
                guard try Self.mark(entry, claim, moment, connection) else {
                    window.report.sendingElsewhere = true
                    window.stopping = true
                    break
                }
                window.sending.insert(entry.sequence)
                window.cursor = entry.sequence
                picked.append(entry)
            }
        }
        return picked
    }
}

// MARK: - The next entry

/// Reading the next entry to send.
extension OutboxReplay {
    /// What comes after `last`, read in the caller's transaction; an entry in `skipping` (in
    /// flight) is passed over.
    static func next(
        _ feature: String, after last: Int64, now: Date, account: String?, skipping: Set<Int64> = [],
        prepare: Outbox.Preparation? = nil, spool: TransferSpool? = nil, _ connection: Connection
    ) throws -> Next {
        guard var entry = try OutboxTable.next(feature, after: last, account: account, connection) else {
            return .end
        }
        if skipping.contains(entry.sequence) { return .passOver(entry) }
        if try entry.isHeld || OutboxTable.isBehind(entry, feature, connection) { return .passOver(entry) }
        if let transfer = entry.transfer {
            switch spool?.state(of: transfer) ?? .missing {
            case .waiting: return .passOver(entry)  // the transfer service has it
            case .answered: return .send(entry)  // its answer is recorded, as it was prepared
            case .missing: entry.transfer = nil  // lost on the way: sent here again, with its key
            }
        }
        if let due = try OutboxTable.due(entry, now: now, connection), due > now {
            let status = try OutboxTable.lastStatus(entry, connection)
            return .notYet(entry, until: due, status: status)
        }
        guard let prepare else { return .send(entry) }
        // Waiting for a resource it names: passed over, and the later entries of its resource
        // with it (they are behind it).
        return try prepare(entry, connection).map(Next.send) ?? .passOver(entry)
    }
}

// MARK: - The claim

/// One sync per file across processes: the run's side of ``OutboxClaim``.
extension OutboxReplay {
    /// Marks `entry` attempted, in the caller's transaction, if this sync holds (or takes) the
    /// claim; otherwise leaves it as it is.
    ///
    /// - Returns: Whether it may be sent.
    static func mark(
        _ entry: OutboxEntry, _ claim: OutboxClaim, _ now: Date, _ connection: Connection
    )
        throws -> Bool
    {
        guard try claim.renew(at: now, connection) else { return false }
        try OutboxTable.markAttempted(entry, connection)
        return true
    }
}
