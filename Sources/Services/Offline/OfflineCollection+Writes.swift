import Foundation
public import Promises

/// Creating, updating and deleting: online at once, else kept here with the change queued.
extension OfflineCollection {
    /// Creates `resource` in the API (its `id` ignored), keeping the answer here; kept here and
    /// queued under the same idempotency key when the API cannot be reached.
    ///
    /// - Parameter resource: The new resource.
    /// - Returns: A promise of the resource as kept (with the API's identifier, or a local one).
    public func create(_ resource: Resource) -> Promise<Resource> {
        let (client, collection, writes, key) = (client, collection, self, UUID().uuidString)
        guard reachability.isReachable else { return writes.queue(.post, resource, key: key, sent: false) }
        var draft = resource
        draft.id = nil
        return client.post(collection, body: draft, as: Resource.self, headers: ["Idempotency-Key": key])
            .then(on: .inline) { writes.keep($0) }
            .recover(on: .inline, policy: .allErrors) { error -> Promise<Resource> in
                guard FailureClass(error).queuesWrite else { throw ServiceRequestError(error) }
                return writes.queue(.post, resource, key: key, sent: true)
            }
    }

    /// Replaces `resource` (by its `id`) in the API, with `If-Match` of its `version`: refused with
    /// ``ServiceRequestError/httpStatus(_:)`` 412 when someone changed it meanwhile. Kept here and
    /// queued when the API cannot be reached or the resource has changes waiting.
    ///
    /// - Parameter resource: The resource as the user changed it.
    /// - Returns: A promise of the resource as kept.
    public func update(_ resource: Resource) -> Promise<Resource> {
        let (client, path, writes, key) = (client, path(of: resource.id ?? ""), self, UUID().uuidString)
        return queued(resource.id ?? "") {
            writes.queue(.put, resource, key: key, sent: false)
        } orElse: {
            client.put(
                path, body: resource, as: Resource.self,
                headers: APIClient.writeHeaders(idempotencyKey: key, basedOn: resource.version)
            )
            .then(on: .inline) { writes.keep($0) }
            .recover(on: .inline, policy: .allErrors) { error -> Promise<Resource> in
                guard FailureClass(error).queuesWrite else { throw ServiceRequestError(error) }
                return writes.queue(.put, resource, key: key, sent: true)
            }
        }
    }

    /// Deletes resource `id` in the API, with `If-Match` of the version kept here; hidden here and
    /// queued when the API cannot be reached or the resource has changes waiting. A resource the
    /// API never had (its create not sent yet) goes, and nothing is sent.
    ///
    /// - Parameter id: Its identifier.
    /// - Returns: A promise fulfilled once it is gone here.
    public func delete(id: String) -> Promise<Void> {
        let (client, path, writes, key, collection) = (
            client, path(of: id), self, UUID().uuidString, collection
        )
        return queued(id) {
            writes.queueDelete(id, key: key, sent: false)
        } orElse: {
            writes.local(id).then(on: .inline) { kept in
                client.delete(
                    path, headers: APIClient.writeHeaders(idempotencyKey: key, basedOn: kept.version))
            }
            .then(on: .inline) { writes.table.write { try OfflineRows.remove(collection, id, $0) } }
            .recover(on: .inline, policy: .allErrors) { error -> Promise<Void> in
                guard FailureClass(error).queuesWrite else { throw ServiceRequestError(error) }
                return writes.queueDelete(id, key: key, sent: true)
            }
        }
    }

    /// Keeps the API's answer as its copy of the resource.
    func keep(_ resource: Resource) -> Promise<Resource> {
        let collection = collection
        return table.write { connection in
            try OfflineRows.put(
                try APIClient.encode(resource), id: resource.id ?? "", origin: OfflineRows.api, collection,
                connection)
            return resource
        }
    }

    /// Writes `resource` here and queues its POST or PUT, in one transaction; a PUT is based on the
    /// copy kept here (its version and JSON).
    func queue(_ method: HTTPMethod, _ resource: Resource, key: String, sent: Bool) -> Promise<Resource> {
        let (collection, outbox, makeID, path) = (collection, outbox, makeID, path(of:))
        return table.write { connection in
            var kept = resource
            var base: Data?
            if method == .post {
                kept.id = makeID()
            } else {
                guard let row = try OfflineRows.one(collection, resource.id ?? "", connection), !row.deleted
                else {
                    throw ServiceRequestError.noData
                }
                base = row.json
                kept.version = try APIClient.decode(Resource.self, from: row.json).version
            }
            let id = kept.id ?? ""
            let json = try APIClient.encode(kept)
            try OfflineRows.put(json, id: id, origin: OfflineRows.device, collection, connection)
            try outbox.record(
                method, method == .post ? collection : path(id), body: json, localID: id, idempotencyKey: key,
                mayHaveArrived: sent, baseVersion: kept.version, base: base, in: connection)
            return kept
        }
    }

    /// Hides resource `id` here and queues its DELETE; one the API never had goes.
    func queueDelete(_ id: String, key: String, sent: Bool) -> Promise<Void> {
        let (collection, outbox, path) = (collection, outbox, path(of: id))
        return table.write { connection in
            guard let row = try OfflineRows.one(collection, id, connection), !row.deleted else {
                throw ServiceRequestError.noData
            }
            let version = try APIClient.decode(Resource.self, from: row.json).version
            let recorded = try outbox.record(
                .delete, path, body: nil, localID: id, idempotencyKey: key, mayHaveArrived: sent,
                baseVersion: version, base: row.json, in: connection)
            if recorded == .cancelledOut {
                try OfflineRows.remove(collection, id, connection)
            } else {
                try OfflineRows.markDeleted(collection, id, connection)
            }
        }
    }

    /// Makes the copy here what the API holds once it accepted `entry`; the API's identifier for a
    /// created resource.
    static func delivered(
        _ entry: OutboxEntry, _ answer: Data, _ collection: String, _ outbox: Outbox, _ connection: Connection
    ) throws -> String? {
        let settled = try outbox.entries(for: entry.localID, in: connection).isEmpty
        let answered = try? APIClient.decode(Resource.self, from: answer)
        switch entry.method {
        case .post:
            guard let answered, let remoteID = answered.id, !remoteID.isEmpty else { return nil }
            if settled {
                try OfflineRows.remove(collection, entry.localID, connection)
                try OfflineRows.put(answer, id: remoteID, origin: OfflineRows.api, collection, connection)
            } else if let row = try OfflineRows.one(collection, entry.localID, connection) {
                // Later changes of it wait: its local version stays, under the API's identifier.
                var local = try APIClient.decode(Resource.self, from: row.json)
                local.id = remoteID
                try OfflineRows.rename(
                    collection, entry.localID, to: remoteID, json: try APIClient.encode(local), connection)
            }
            return remoteID
        case .put where settled && answered != nil:
            try OfflineRows.put(answer, id: entry.localID, origin: OfflineRows.api, collection, connection)
        case .delete where settled:
            try OfflineRows.remove(collection, entry.localID, connection)
        default:
            break
        }
        return nil
    }
}

/// The collection's copy, as ``NetworkFallback`` keeps it: fresh listings replace the API's rows
/// and keep those changed here; the copy is dated by its last listing, or by the newest change
/// made here when it has none.
struct OfflineCopy<Resource: OfflineResource>: OfflineCache {
    let collection: OfflineCollection<Resource>

    init(_ collection: OfflineCollection<Resource>) {
        self.collection = collection
    }

    func save(_ value: [Resource], at date: Date) -> Promise<Void> {
        let name = collection.collection
        return collection.table.write { connection in
            let fresh = try value.map { (id: $0.id ?? "", json: try APIClient.encode($0)) }
            try OfflineRows.replaceAPICopy(fresh, name, connection)
            try connection.setCacheStamp("offline:\(name)", to: date)
        }
    }

    func load() -> Promise<Cached<[Resource]>?> {
        let (name, outbox) = (collection.collection, collection.outbox)
        return collection.table.read { connection in
            guard
                let savedAt = try connection.cacheStamp("offline:\(name)")
                    ?? outbox.newestChange(in: connection)
            else { return nil }
            let resources = try OfflineRows.all(name, connection).map {
                try APIClient.decode(Resource.self, from: $0)
            }
            return Cached(value: resources, savedAt: savedAt)
        }
    }
}
