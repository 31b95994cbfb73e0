public import Foundation
public import Services

extension Outbox {
    /// What recording a change did to the outbox.
    ///
    /// More cases may be added: a `switch` over it needs a `default`.
    public enum Recorded: Sendable, Equatable {
        /// A new entry, sent after the earlier ones.
        case added(OutboxEntry)
        /// Merged into the resource's last entry, not sent yet, which now carries this change too:
        /// create + update is that create with the update's body; update + update, the later
        /// update; update + delete, a delete.
        case merged(into: OutboxEntry)
        /// A delete of a resource whose create was never sent: the create is gone too and nothing
        /// is sent. The API never knew the resource; the feature removes it here.
        case cancelledOut

        /// The entry that carries the change, or `nil` when nothing will be sent.
        public var entry: OutboxEntry? {
            switch self {
            case .added(let entry), .merged(let entry): entry
            case .cancelledOut: nil
            }
        }
    }

    /// Records a change for the API, inside the caller's write transaction, merged with the
    /// resource's last change when that one has not been sent (see ``Recorded``).
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The resource, relative to the API's base URL; put identifiers here, not in the
    ///     body, so that a local identifier can be replaced by the API's.
    ///   - body: The JSON body, or `nil`.
    ///   - localID: The changed resource's identifier on this device.
    ///   - idempotencyKey: The key sent with every attempt; a new UUID by default. Pass the key of
    ///     an online attempt that timed out, so the API can tell whether it already has it.
    ///   - mayHaveArrived: Whether the change was sent already (an online attempt whose answer
    ///     never came): it is kept as it is, never merged, and nothing is merged into it.
    ///   - baseVersion: The version of the resource the change was made from (the API's
    ///     `version` of the copy shown), sent as `If-Match`; `nil` for a create, or a resource
    ///     without versions (the change is then sent unconditionally).
    ///   - base: That copy, as JSON: what a three-way merge starts from when the API's copy
    ///     changed meanwhile.
    ///   - account: The account making the change (`Credentials/account`): only a sync signed in
    ///     as it sends the change. `nil` (the default) with no sign-in.
    ///   - connection: The connection of the transaction the local change is written in.
    /// - Returns: What was recorded.
    /// - Throws: `DatabaseError` when it cannot be written; the caller's transaction then fails.
    @discardableResult
    public func record(
        _ method: HTTPMethod, _ path: String, body: Data?, localID: String,
        idempotencyKey: String = UUID().uuidString, mayHaveArrived: Bool = false, baseVersion: String? = nil,
        base: Data? = nil, account: String? = nil, in connection: Connection
    ) throws -> Recorded {
        if !mayHaveArrived,
            let merged = try OutboxTable.coalesce(
                method, path, body: body, localID: localID, feature: feature, connection)
        {
            return merged
        }
        let createdAt = now()
        try connection.execute(
            """
            INSERT INTO outbox (
                feature, local_id, method, path, body, idempotency_key, created_at, attempted, base_version, base,
                account)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(feature), .text(localID), .text(method.rawValue), .text(path),
                body.map(SQLValue.blob) ?? .null,
                .text(idempotencyKey), .real(createdAt.timeIntervalSince1970),
                .integer(mayHaveArrived ? 1 : 0), baseVersion.map(SQLValue.text) ?? .null,
                base.map(SQLValue.blob) ?? .null, account.map(SQLValue.text) ?? .null,
            ])
        guard case .integer(let sequence) = try connection.scalar("SELECT last_insert_rowid()") else {
            throw DatabaseError(
                kind: .other, message: "no sequence for the outbox entry", path: connection.path)
        }
        var entry = OutboxEntry(
            sequence: sequence, localID: localID, method: method, path: path, body: body,
            idempotencyKey: idempotencyKey, state: .pending, createdAt: createdAt, baseVersion: baseVersion,
            base: base)
        entry.account = account
        return .added(entry)
    }

    /// Records a change for the API with `json` as its body, encoded as `APIClient` encodes
    /// bodies, inside the caller's write transaction; see
    /// ``record(_:_:body:localID:idempotencyKey:mayHaveArrived:baseVersion:base:account:in:)``.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The resource, relative to the API's base URL.
    ///   - json: The body.
    ///   - localID: The changed resource's identifier on this device.
    ///   - idempotencyKey: The key sent with every attempt; a new UUID by default.
    ///   - mayHaveArrived: Whether the change was sent already; see the other `record`.
    ///   - baseVersion: The version the change was made from, sent as `If-Match`.
    ///   - base: The API's copy the change was made from, as JSON.
    ///   - account: The account making the change, which alone may send it; `nil` with no sign-in.
    ///   - connection: The connection of the transaction the local change is written in.
    /// - Returns: What was recorded.
    /// - Throws: `EncodingError`, or `DatabaseError` when it cannot be written.
    @discardableResult
    public func record(
        _ method: HTTPMethod, _ path: String, json: some Encodable, localID: String,
        idempotencyKey: String = UUID().uuidString, mayHaveArrived: Bool = false, baseVersion: String? = nil,
        base: Data? = nil, account: String? = nil, in connection: Connection
    ) throws -> Recorded {
        try record(
            method, path, body: try APIClient.encode(json), localID: localID, idempotencyKey: idempotencyKey,
            mayHaveArrived: mayHaveArrived, baseVersion: baseVersion, base: base, account: account,
            in: connection)
    }
}
