import Foundation
public import Promises
import Services

/// Creating, updating and deleting: online at once, else kept here with the change queued.
extension OfflineCollection {
    /// Creates `resource` in the API (its `id` ignored), keeping the answer here; kept here and
    /// queued under the same idempotency key when the API cannot be reached.
    ///
    /// - Parameter resource: The new resource.
    /// - Returns: A promise of the resource as kept (with the API's identifier, or a local one).
    public func create(_ resource: Resource) -> Promise<Resource> {
        let (client, writes) = (client, self)
        return renamingReferences(resource).then(on: .inline) { resource in
            var draft = resource
            draft.id = nil
            let path = writes.creationPath(of: resource)
            return writes.create(resource) { [draft] key in
                client.post(path, body: draft, as: Resource.self, headers: ["Idempotency-Key": key])
            }
        }
        .recover(on: .inline, policy: .allErrors) { throw Self.reported($0) }
    }

    /// Creates `resource` in the API with `send` (for a feature whose API is reached its own way);
    /// kept here and queued, as ``create(_:)`` does, when `send` fails because the API cannot be
    /// reached (`FailureClass/queuesWrite`). Any other failure of `send` is returned as it is.
    ///
    /// - Parameters:
    ///   - resource: The new resource, as it is kept and queued.
    ///   - send: Sends it with the idempotency key given, which a queued change keeps.
    /// - Returns: A promise of the resource as kept.
    public func create(
        _ resource: Resource,
        sending send: @escaping @Sendable (_ idempotencyKey: String) -> Promise<Resource>
    ) -> Promise<Resource> {
        let (writes, key) = (self, UUID().uuidString)
        guard reachability.isReachable else { return writes.queue(.post, resource, key: key, sent: false) }
        // Nothing is sent before the stored data is at the collection's model.
        return storage.tables.opened.then(on: .inline) { writes.waitsForParent(resource) }.then(on: .inline) {
            waits in
            waits
                ? writes.queue(.post, resource, key: key, sent: false)
                : writes.sent(.post, resource, key: key, by: send)
        }
    }

    /// Replaces `resource` (by its `id`) in the API, with `If-Match` of its `version`: refused with
    /// `ServiceRequestError/httpStatus(_:)` 412 when someone changed it meanwhile. Kept here and
    /// queued when the API cannot be reached or the resource has changes waiting.
    ///
    /// - Parameter resource: The resource as the user changed it.
    /// - Returns: A promise of the resource as kept.
    public func update(_ resource: Resource) -> Promise<Resource> {
        put(resource, applying: nil)
    }

    /// Replaces `resource` in the API with `send`; kept here and queued as ``update(_:)`` does.
    /// Any other failure of `send` is returned as it is.
    ///
    /// - Parameters:
    ///   - resource: The resource as the user changed it, as it is kept and queued.
    ///   - send: Sends it (with `If-Match` of its version) and the idempotency key given.
    /// - Returns: A promise of the resource as kept.
    public func update(
        _ resource: Resource,
        sending send: @escaping @Sendable (_ idempotencyKey: String) -> Promise<Resource>
    ) -> Promise<Resource> {
        update(resource, applying: nil, sending: send)
    }

    /// ``update(_:sending:)``; queued, with `change` applied to the latest value instead.
    func update(
        _ resource: Resource, applying change: (@Sendable (inout Resource) -> Void)?,
        sending send: @escaping @Sendable (_ idempotencyKey: String) -> Promise<Resource>
    ) -> Promise<Resource> {
        let (writes, key) = (self, UUID().uuidString)
        return queued(resource.id ?? "") {
            writes.queue(.put, resource, key: key, sent: false, applying: change)
        } orElse: {
            writes.waitsForParent(resource).then(on: .inline) { waits in
                waits
                    ? writes.queue(.put, resource, key: key, sent: false, applying: change)
                    : writes.sent(.put, resource, key: key, by: send)
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
        let (client, path) = (client, path(of: id))
        return delete(id: id) { key, version in
            client.delete(path, headers: APIClient.writeHeaders(idempotencyKey: key, basedOn: version))
                .map(on: .inline) { nil }
        }
        .map(on: .inline) { _ in }
        .recover(on: .inline, policy: .allErrors) { throw Self.reported($0) }
    }

    /// Deletes resource `id` in the API with `send`; hidden here and queued as ``delete(id:)``
    /// does. Any other failure of `send` is returned as it is.
    ///
    /// - Parameters:
    ///   - id: Its identifier.
    ///   - send: Sends the delete with the idempotency key given and `If-Match` of the version
    ///     kept here (`nil` when none is); gives the API's copy if it learned it.
    /// - Returns: A promise of the resource as it was, the API's copy if `send` gave it, else as
    ///   kept here; `nil` when neither had it.
    public func delete(
        id: String,
        sending send: @escaping @Sendable (_ idempotencyKey: String, _ version: String?) -> Promise<Resource?>
    ) -> Promise<Resource?> {
        let (writes, key, storage) = (self, UUID().uuidString, storage)
        return queued(id) {
            writes.queueDelete(id, key: key, sent: false).map(on: .inline) { $0 }
        } orElse: {
            writes.local(id).map(on: .inline) { Optional($0) }
                .recover(on: .inline) { _ in Guarantee<Resource?>.value(nil) }.asPromise()
                .then(on: .inline) { kept in
                    send(key, kept?.version).then(on: .inline) { answer in
                        // The API deleted it: a copy here that cannot follow is not an error.
                        storage.tables.write { connection in
                            if let deleted = kept ?? answer {
                                try storage.references?.released(deleted, connection)
                            }
                            try storage.remove(id: id, from: nil, in: connection)
                        }
                        .map(on: .inline) { answer ?? kept }
                        .recover(on: .inline) { _ in Guarantee.value(answer ?? kept) }.asPromise()
                    }
                }
                .recover(on: .inline, policy: .allErrors) { error -> Promise<Resource?> in
                    if let theirs = FailureClass.conflictCopy(of: error) {
                        return writes.queueDelete(id, key: key, sent: true, conflict: theirs)
                            .then(on: .inline) { _ in writes.failingWithConflict(id) }
                    }
                    let failure = FailureClass(error)
                    guard failure.queuesWrite else { throw error }
                    return writes.queueDelete(id, key: key, sent: !failure.neverLeft).map(on: .inline) { $0 }
                }
        }
    }

    /// `send`'s answer kept as the API's copy; when the API could not be reached, the change kept
    /// here and queued under the same key (it may have arrived, unless no connection was made).
    func sent(
        _ method: HTTPMethod, _ resource: Resource, key: String,
        by send: @Sendable (_ idempotencyKey: String) -> Promise<Resource>
    ) -> Promise<Resource> {
        let writes = self
        return keeping(send(key)).recover(on: .inline, policy: .allErrors) { error -> Promise<Resource> in
            if let theirs = FailureClass.conflictCopy(of: error), method == .put {
                return writes.queue(method, resource, key: key, sent: true, conflict: theirs)
                    .then(on: .inline) { _ in writes.failingWithConflict(resource.id ?? "") }
            }
            let failure = FailureClass(error)
            guard failure.queuesWrite else { throw error }
            return writes.queue(method, resource, key: key, sent: !failure.neverLeft)
        }
    }

    /// Keeps the API's answer to a write as its copy of the resource; a copy here that cannot be
    /// written does not undo what the API accepted.
    func keeping(_ write: Promise<Resource>) -> Promise<Resource> {
        let (storage, now) = (storage, now)
        return write.then(on: .inline) { resource in
            storage.tables.write { connection in
                try storage.put(resource, from: .api, in: connection)
                try storage.dateCopyIfUndated(now(), in: connection)
            }
            .map(on: .inline) { resource }
            .recover(on: .inline) { _ in Guarantee.value(resource) }.asPromise()
        }
    }

    /// Writes `resource` here and queues its POST or PUT, in one transaction; a PUT is based on the
    /// copy kept here (its version and JSON).
    func queue(
        _ method: HTTPMethod, _ resource: Resource, key: String, sent: Bool, conflict: Data?? = nil,
        applying change: (@Sendable (inout Resource) -> Void)? = nil
    ) -> Promise<Resource> {
        let (storage, makeID, path, creationPath) = (storage, makeID, path(of:), creationPath(of:))
        let account = client.credentials?.account
        return storage.tables.write { connection in
            var kept = resource
            var base: Data?
            if method == .post {
                kept.id = makeID()
            } else {
                guard let row = try storage.resource(id: resource.id ?? "", in: connection), !row.deleted
                else {
                    throw ServiceRequestError.noData
                }
                base = try APIClient.encode(row.value)
                if let change {
                    // The latest value here, changed: not the one read before the transaction.
                    kept = row.value
                    change(&kept)
                }
                kept.version = row.value.version
            }
            let id = kept.id ?? ""
            _ = try storage.references?.rename(&kept, connection)
            try storage.put(kept, from: .device, in: connection)
            var body = kept
            if method == .post { body.id = nil }  // the API names it, as online
            try storage.outbox.record(
                method, method == .post ? creationPath(kept) : path(id), json: body, localID: id,
                idempotencyKey: key,
                mayHaveArrived: sent, baseVersion: kept.version, base: base, account: account, in: connection)
            try Self.hold(id, theirs: conflict, storage, connection)
            return kept
        }
    }

    /// Hides resource `id` here and queues its DELETE; one the API never had goes.
    func queueDelete(_ id: String, key: String, sent: Bool, conflict: Data?? = nil) -> Promise<Resource> {
        let (storage, path, account) = (storage, path(of: id), client.credentials?.account)
        return storage.tables.write { connection in
            guard let row = try storage.resource(id: id, in: connection), !row.deleted else {
                throw ServiceRequestError.noData
            }
            let recorded = try storage.outbox.record(
                .delete, path, body: nil, localID: id, idempotencyKey: key, mayHaveArrived: sent,
                baseVersion: row.value.version, base: try APIClient.encode(row.value), account: account,
                in: connection)
            if recorded == .cancelledOut {
                try storage.remove(id: id, from: nil, in: connection)
            } else {
                try storage.markDeleted(id: id, in: connection)
                try Self.hold(id, theirs: conflict, storage, connection)
            }
            return row.value
        }
    }
}
