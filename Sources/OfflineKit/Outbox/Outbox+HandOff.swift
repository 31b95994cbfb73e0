import Foundation
public import Promises
public import Services

/// Changes handed to a transfer service that may send them after the app has exited
/// (``transferSpool``, a `BackgroundTransfers` session on Apple platforms).
extension Outbox {
    /// Hands the changes a sync would send now to the transfer service instead of sending them:
    /// each is written to ``transferSpool`` as its request (method, address, header fields with its
    /// `Idempotency-Key` and `If-Match`, body) and marked handed off, under the sync's claim, in
    /// one transaction. No sync sends a change while it is handed off, and nothing merges into it.
    ///
    /// The same changes go as in ``sync(with:delivered:)``, all at once: the first waiting change
    /// of each resource, never a change naming a resource whose create is not answered (it waits
    /// for that answer, at a later sync). A later ``sync(with:delivered:)`` records each answer
    /// the service got exactly as it records its own (identifiers rewritten, children released,
    /// conflicts kept), once, in any process; a change whose request is no longer in the spool is
    /// taken back and sent by that sync, with its key.
    ///
    /// - Parameter client: The API's client: the address and the user's token of each request.
    /// - Returns: A promise of a report whose `handedOff` lists the changes handed off; nothing is
    ///   handed off without a spool, signed out (`stoppedBecause` 401), or while another process
    ///   syncs (`sendingElsewhere`). Rejected with a `ServiceRequestError` when the database or
    ///   the spool cannot be written (nothing is handed off then).
    public func handOff(with client: APIClient) -> Promise<OutboxSyncReport> {
        handOff(with: client, preparing: nil)
    }

    /// As ``handOff(with:)``, each change readied by `preparing` first (related records'
    /// identifiers), as a sync readies it.
    func handOff(with client: APIClient, preparing: Preparation?) -> Promise<OutboxSyncReport> {
        guard let spool = transferSpool else { return .value(OutboxSyncReport()) }
        let (feature, database, now) = (feature, table.database, now)
        let claim = OutboxClaim(feature: feature, lease: client.timeout + 30, watch: claimWatch)
        let account = client.credentials?.account
        if client.credentials != nil, account == nil {
            return .value(OutboxSyncReport(stoppedBecause: .httpStatus(401)))
        }
        let picked = table.opened.then(on: .inline) {
            database.write { connection -> (entries: [OutboxEntry], elsewhere: Bool) in
                guard try claim.renew(at: now(), connection) else { return ([], true) }
                var entries: [OutboxEntry] = []
                var cursor: Int64 = 0
                while true {
                    let next = try OutboxReplay.next(
                        feature, after: cursor, now: now(), account: account, prepare: preparing,
                        spool: spool,
                        connection)
                    switch next {
                    case .end:
                        return (entries, false)
                    case .passOver(let entry), .notYet(let entry, _, _):
                        cursor = entry.sequence
                    case .send(var entry):
                        cursor = entry.sequence
                        // Answered already: recorded by the next sync, not handed off again.
                        guard entry.transfer == nil else { continue }
                        entry.transfer = UUID().uuidString.lowercased()
                        try OutboxTable.markHandedOff(entry, as: entry.transfer ?? "", connection)
                        entries.append(entry)
                    }
                }
            }
        }
        return picked.then(on: .inline) { picked -> Promise<OutboxSyncReport> in
            let started = OutboxSyncReport(sendingElsewhere: picked.elsewhere)
            guard !picked.entries.isEmpty else {
                return Self.released(claim, database, feature, started)
            }
            let written: [Promise<String>] = picked.entries.map { entry in
                client.spooled(
                    entry.method, entry.path, body: entry.body, headers: OutboxReplay.headers(of: entry)
                ).map(on: .inline) { request -> String in
                    try spool.write(request, body: entry.body, name: entry.transfer ?? "")
                }
            }
            return when(resolved: written).asPromise().then(on: .inline) {
                results -> Promise<OutboxSyncReport> in
                // A request that could not be written is taken back: the outbox sends it itself.
                var report = started
                var failed: [String] = []
                var firstFailure: (any Error)?
                for (entry, result) in zip(picked.entries, results) {
                    switch result {
                    case .success: report.handedOff.append(entry)
                    case .failure(let error):
                        failed.append(entry.transfer ?? "")
                        firstFailure = firstFailure ?? error
                    }
                }
                let (handed, takenBack, failure) = (report, failed, firstFailure)
                return database.write { try OutboxTable.takeBack(takenBack, $0) }.then(on: .inline) {
                    Self.released(claim, database, feature, handed)
                }.map(on: .inline) { report -> OutboxSyncReport in
                    if report.handedOff.isEmpty, let failure { throw failure }
                    return report
                }
            }
        }
        .recover(on: .inline) { error -> Promise<OutboxSyncReport> in throw ServiceRequestError(error) }
        .tap(on: .inline) { if case .failure = $0 { claim.leave() } }
    }

    /// Gives `claim` up and counts what waits, into `report`.
    private static func released(
        _ claim: OutboxClaim, _ database: Database, _ feature: String, _ report: OutboxSyncReport
    ) -> Promise<OutboxSyncReport> {
        database.write { connection in
            try claim.release(connection)
            var report = report
            report.waiting = try OutboxTable.waiting(feature, connection)
            return report
        }
    }
}

extension OutboxReplay {
    /// The answer a transfer service got for `entry`, read from the spool as the client reads its
    /// own, when it was handed off and answered; `nil` to send it. The spool's files go once read:
    /// the entry is no longer handed off (its mark said so, committed first), and were the process
    /// to end before the answer is recorded, the next sync sends it again with its key and the
    /// API answers the same.
    func spooledAnswer(to entry: OutboxEntry) -> Promise<Data>? {
        guard let name = entry.transfer, let spool, case .answered(let answer) = spool.state(of: name) else {
            return nil
        }
        let url = spool.request(name)?.request.url ?? client.url(for: entry.path)
        spool.remove(name)
        return Promise { seal in seal.resolve(client.reading(answer, at: url)) }
    }
}
