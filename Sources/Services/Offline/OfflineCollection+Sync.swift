import Foundation
public import Promises

/// The changes that wait: sending them, their state, and what the user does with a held one.
extension OfflineCollection {
    /// Sends the changes that wait, in order, each once; see ``Outbox``.
    ///
    /// - Returns: A promise of what was sent, merged, refused or conflicted, and what waits.
    public func sync() -> Promise<OutboxSyncReport> {
        let (outbox, storage, now) = (outbox, storage, now)
        return outbox.sync(with: client) { entry, answer, connection in
            let newID = try Self.delivered(entry, answer, storage, connection)
            try storage.dateCopyIfUndated(now(), in: connection)
            return newID
        }
    }

    /// Each changed resource's ``SyncState``, and how many changes wait or are held.
    public func status() -> Promise<OutboxStatus> {
        let storage = storage
        return storage.tables.read { connection in
            try storage.outbox.status(in: connection, changedHere: try storage.idsChangedHere(in: connection))
        }
    }

    /// Sends a resource's refused or stuck changes again at the next sync.
    ///
    /// - Parameter id: The resource's identifier.
    /// - Returns: A promise of how many changes wait again.
    public func retry(id: String) -> Promise<Int> {
        outbox.retry(localID: id)
    }

    /// Drops a resource's held change and those behind it, and undoes them here: one the API
    /// never had goes; one it has comes back as the API has it at the next listing.
    ///
    /// - Parameter id: The resource's identifier.
    /// - Returns: A promise of the changes dropped.
    public func discard(id: String) -> Promise<[OutboxEntry]> {
        let storage = storage
        return outbox.discard(localID: id) { entries, connection in
            let created = entries.contains { $0.method == .post }
            try storage.remove(id: id, from: created ? nil : .device, in: connection)
        }
        .then(on: .inline) { dropped -> Promise<[OutboxEntry]> in
            guard dropped.isEmpty else { return .value(dropped) }
            // A row changed here whose change is missing from the outbox: its row goes, and the
            // API's copy shows again at the next listing.
            return storage.tables.write { connection in
                let changed = try storage.idsChangedHere(in: connection)
                let missing = OutboxStatus.missing(
                    changed.filter { $0.isSameIdentifier(as: id) },
                    from: try storage.outbox.entries(for: id, in: connection))
                guard !missing.isEmpty else { return [] }
                try storage.remove(id: id, from: .device, in: connection)
                return missing
            }
        }
    }

    /// Settles a conflict: this device's change sent again over the API's version (or the
    /// resource created again), or the API's copy taken (see ``Outbox/resolve(localID:keeping:recreatingAt:applyingTheirs:)``).
    /// Keeping mine after a `412` that came without the API's copy reads the copy first
    /// (``Outbox/resolveKeepingMine(localID:recreatingAt:fetchingTheirs:)``): the change is sent
    /// with `If-Match` of the version it now knows, never unconditionally; offline, it fails and
    /// nothing changes.
    ///
    /// - Parameters:
    ///   - id: The resource's identifier.
    ///   - keeping: The side to keep.
    /// - Returns: A promise of how many changes were resolved or dropped.
    public func resolve(id: String, keeping: Outbox.Keeping) -> Promise<Int> {
        let (storage, client, path, reachable) = (storage, client, path(of: id), reachability.isReachable)
        guard keeping == .theirs else {
            return outbox.resolveKeepingMine(localID: id, recreatingAt: collection) {
                guard reachable else { return Promise(error: ServiceRequestError.noNetwork) }
                return client.get(path, as: Resource.self).map(on: .inline) {
                    Optional(try APIClient.encode($0))
                }
                .recover(on: .inline, policy: .allErrors) { error -> Promise<Data?> in
                    guard FailureClass(error).status == 404 || FailureClass(error).status == 410 else {
                        throw ServiceRequestError(error)
                    }
                    return .value(nil)
                }
            }
        }
        return outbox.resolve(localID: id, keeping: .theirs, recreatingAt: collection) { theirs, connection in
            // Without the API's copy (it sent none, or one this device cannot read), the row goes
            // until the next listing brings it.
            if let theirs, var copy = try? APIClient.decode(Resource.self, from: theirs) {
                copy.id = id
                try storage.put(copy, from: .api, in: connection)
            } else {
                try storage.remove(id: id, from: nil, in: connection)
            }
            // Changes made after the one given up still wait, moved onto the API's copy: the
            // screen shows the last of them.
            guard let last = try storage.outbox.entries(for: id, in: connection).last else { return }
            if last.method == .delete {
                if try storage.resource(id: id, in: connection) != nil {
                    try storage.markDeleted(id: id, in: connection)
                }
            } else if let body = last.body, var mine = try? APIClient.decode(Resource.self, from: body) {
                mine.id = id
                try storage.put(mine, from: .device, in: connection)
            }
        }
    }
}
