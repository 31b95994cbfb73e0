import Foundation
public import Promises
import Services

extension Outbox {
    /// What this outbox holds, read in one transaction: see ``OutboxDiagnostics``.
    ///
    /// - Returns: A promise of the snapshot.
    public func diagnostics() -> Promise<OutboxDiagnostics> {
        diagnostics(includingBodies: false)
    }

    /// ``diagnostics()`` with each change's body (``OutboxDiagnostics/Change/body``) when
    /// `includingBodies`: for an app whose support asks what a change carried, and whose user
    /// agreed to send it. Without it, no body is read.
    ///
    /// - Parameter includingBodies: Whether to read the bodies too.
    /// - Returns: A promise of the snapshot.
    public func diagnostics(includingBodies: Bool) -> Promise<OutboxDiagnostics> {
        let outbox = self
        return table.read { try outbox.diagnostics(in: $0, bodies: includingBodies) }
    }

    /// ``diagnostics(includingBodies:)`` read in the caller's transaction.
    func diagnostics(in connection: Connection, bodies: Bool = false) throws -> OutboxDiagnostics {
        let identifiers = try connection.query(
            "SELECT local_id, api_id FROM outbox_identifiers WHERE feature = ?", [.text(feature)]
        ) { (try $0.string("local_id"), try $0.string("api_id")) }
        let byLocal = Dictionary(identifiers, uniquingKeysWith: { first, _ in first })
        let byAPI = Dictionary(identifiers.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let entries =
            bodies
            ? try OutboxTable.entries(feature, nil, connection)
            : try OutboxTable.descriptions(feature, connection)
        let changes = entries.map { entry in
            // A change made after its resource's create was answered names the API's id: it
            // is shown under the id this device gave, beside the API's.
            var change =
                if let local = byAPI[entry.localID] {
                    Self.change(entry, localID: local, apiID: entry.localID)
                } else {
                    Self.change(entry, localID: entry.localID, apiID: byLocal[entry.localID])
                }
            change.body = entry.body.map { String(decoding: $0, as: UTF8.self) }
            return change
        }
        let claim = try connection.query(
            "SELECT pid, host, expires FROM outbox_claims WHERE feature = ?", [.text(feature)]
        ) { row in
            OutboxDiagnostics.Claim(
                pid: Int64(try row.int("pid")), host: try row.string("host"),
                expires: Date(timeIntervalSince1970: try row.double("expires")))
        }.first
        let version = try connection.scalar(
            "SELECT version FROM offline_models WHERE feature = ?", [.text(feature)])
        let bytes = try connection.scalar(
            "SELECT COALESCE(SUM(COALESCE(length(body), 0) + length(path)), 0) FROM outbox WHERE feature = ?",
            [.text(feature)])
        return OutboxDiagnostics(
            feature: feature, changes: changes, identifiers: identifiers.count, claim: claim,
            owner: try OfflineOwner.account(of: feature, connection),
            modelVersion: { if case .integer(let version)? = version { Int(version) } else { 1 } }(),
            outboxBytes: { if case .integer(let bytes)? = bytes { Int(bytes) } else { 0 } }())
    }

    /// `entry` described without its body.
    static func change(_ entry: OutboxEntry, localID: String, apiID: String?) -> OutboxDiagnostics.Change {
        let (state, reason): (String, String?) =
            switch entry.state {
            case .pending: ("waiting", nil)
            case .refused(let reason): ("refused", reason)
            case .stuck(let lastError): ("stuck", lastError)
            case .conflicted: ("conflict", nil)
            case .damaged(let reason): ("damaged", reason)
            }
        let kind =
            switch entry.method {
            case .post: "create"
            case .put, .patch: "update"
            case .delete: "delete"
            default: entry.method.rawValue
            }
        var change = OutboxDiagnostics.Change(
            sequence: entry.sequence, kind: kind, localID: localID, apiID: apiID, path: entry.path,
            state: state, reason: reason, failures: entry.failures, notBefore: entry.notBefore,
            account: entry.account, createdAt: entry.createdAt, sent: entry.attemptedBefore)
        change.handedOff = entry.transfer
        return change
    }
}
