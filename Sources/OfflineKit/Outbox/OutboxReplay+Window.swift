import Foundation
import Promises
import Services

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
                prepare: prepare, connection)
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
