import Foundation
import Services

/// What a change the API accepted does to the copy here.
extension OfflineCollection {
    /// Makes the copy here what the API holds once it accepted `entry`; the API's identifier for a
    /// created resource.
    static func delivered(
        _ entry: OutboxEntry, _ answer: Data, _ storage: AnyOfflineStorage<Resource>, _ connection: Connection
    ) throws -> String? {
        let id = entry.localID
        let settled = try storage.outbox.entries(for: id, in: connection).isEmpty
        let answered = try? APIClient.decode(Resource.self, from: answer)
        try requireAPIAnswer(entry, answer, answered)
        switch entry.method {
        case .post:
            guard var answered, let remoteID = answered.id, !remoteID.isEmpty else { return nil }
            if remoteID != id {
                try requireNewIdentifier(
                    remoteID, for: entry, answer: try APIClient.encode(answered), storage, connection)
                try storage.remove(id: remoteID, from: nil, in: connection)
            }
            if settled {
                try storage.remove(id: id, from: nil, in: connection)
                answered.id = remoteID
                try storage.put(answered, from: .api, in: connection)
            } else if let row = try storage.resource(id: id, in: connection) {
                // Later changes of it wait: its local version stays, under the API's identifier.
                var local = row.value
                local.id = remoteID
                try storage.remove(id: id, from: nil, in: connection)
                try storage.put(local, from: .device, in: connection)
                if row.deleted { try storage.markDeleted(id: remoteID, in: connection) }
            }
            return remoteID
        case .put where settled:
            if var answered {
                answered.id = id
                try storage.put(answered, from: .api, in: connection)
            } else if let row = try storage.resource(id: id, in: connection) {
                try storage.put(row.value, from: .api, in: connection)
            }
        case .delete where settled:
            if let row = try storage.resource(id: id, in: connection) {
                try storage.references?.released(row.value, connection)
            }
            try storage.remove(id: id, from: nil, in: connection)
        default:
            break
        }
        return nil
    }

    /// Throws ``OutboxError`` when identifier `remoteID` names a resource here this create did not
    /// make: another create here was given it, or the copy holds it and this create was never
    /// sent before and answered otherwise (a listing running meanwhile brings the same fields; a
    /// create whose answer was lost may find what it made in the copy). Taking it would make two
    /// resources one, or overwrite one.
    static func requireNewIdentifier(
        _ remoteID: String, for entry: OutboxEntry, answer: Data, _ storage: AnyOfflineStorage<Resource>,
        _ connection: Connection
    ) throws {
        let otherCreate = try connection.scalar(
            "SELECT 1 FROM outbox_identifiers WHERE feature = ? AND api_id = ? AND local_id <> ? LIMIT 1",
            [.text(storage.outbox.feature), .text(remoteID), .text(entry.localID)])
        var another = otherCreate != nil
        if !another, !entry.attemptedBefore, let kept = try storage.resource(id: remoteID, in: connection) {
            another = !JSONMerge.sameFields(try APIClient.encode(kept.value), answer)
        }
        if another { throw OutboxError(identifierKept: remoteID, creating: entry.localID) }
    }

    /// Throws `APIError/notTheAPI(reason:)` unless `answer` is the API's answer to `entry`: for a
    /// create, the resource with its identifier; for an update, the resource (with its version
    /// when the change was made from one), or nothing (a 204); for a delete, anything. Throwing
    /// rolls the completion back: the change waits under its key, and no failure is counted; but
    /// a create answered with a JSON object without a usable id throws ``UnusableAnswer``, which
    /// counts as a failure.
    static func requireAPIAnswer(_ entry: OutboxEntry, _ answer: Data, _ answered: Resource?) throws {
        switch entry.method {
        case .post:
            guard let id = answered?.id, !id.isEmpty else {
                // JSON that is not the resource with its id is the API's own answer, gone wrong:
                // counted, never waited on forever. Anything else is not the API's.
                if (try? JSONSerialization.jsonObject(with: answer)) is [String: Any] {
                    throw UnusableAnswer(createOf: "\(Resource.self)", answer: answer)
                }
                throw APIError.notTheAPI(reason: "the answer to a create is not \(Resource.self) with its id")
            }
        case .put where answer.isEmpty:
            break
        case .put:
            guard answered != nil, entry.baseVersion == nil || JSONMerge.version(of: answer) != nil else {
                throw APIError.notTheAPI(
                    reason: "the answer to an update is not \(Resource.self) with its version")
            }
        default:
            break
        }
    }
}
