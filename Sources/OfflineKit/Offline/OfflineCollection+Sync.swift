import Foundation
public import Promises
public import Services

/// The changes that wait: sending them, their state, and what the user does with a held one.
extension OfflineCollection {
    /// Sends the changes that wait, in order, each once; see ``Outbox``.
    ///
    /// - Returns: A promise of what was sent, merged, refused or conflicted, and what waits.
    public func sync() -> Promise<OutboxSyncReport> {
        let (outbox, storage, now) = (outbox, storage, now)
        return outbox.sync(
            with: client, merging: conflictRule,
            preparing: storage.references?.preparing(storage, createPath: createPath)
        ) {
            entry, answer, connection in
            let newID = try Self.delivered(entry, answer, storage, connection)
            try storage.dateCopyIfUndated(now(), in: connection)
            return newID
        }
    }

    /// The same collection, handing its changes to a transfer service through `spool` at
    /// ``handOff()``, and recording the answers the service got at each ``sync()``
    /// (``Outbox/transferSpool``).
    ///
    /// - Parameter spool: Where the requests and their answers are kept; one for the app's file.
    /// - Returns: The collection.
    public func handingOff(to spool: TransferSpool) -> OfflineCollection {
        var handing = self
        handing.outbox.transferSpool = spool
        return handing
    }

    /// Hands the changes a sync would send now to the transfer service of
    /// ``handingOff(to:)``, without a request of its own: a transfer that outlives the process
    /// sends them, and the next ``sync()`` records its answers, each once (see
    /// ``Outbox/handOff(with:)``). A change naming a resource whose create is not answered yet
    /// waits for a sync after that answer.
    ///
    /// - Returns: A promise of the report; its `handedOff` lists what the service has now.
    public func handOff() -> Promise<OutboxSyncReport> {
        outbox.handOff(
            with: client, preparing: storage.references?.preparing(storage, createPath: createPath))
    }

    /// The same collection, sending up to `count` changes at once (``Outbox/changesInFlight``;
    /// ``Outbox/standardChangesInFlight`` by default); 1 sends one at a time.
    ///
    /// - Parameter count: How many changes may wait for their answers at once, at least 1.
    /// - Returns: The collection.
    public func sendingAtOnce(_ count: Int) -> OfflineCollection {
        var sending = self
        sending.outbox.changesInFlight = max(1, count)
        return sending
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
            try storage.undo(entries, of: id, in: connection)
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
                try connection.forgetCacheValidators(storage.copyStamp)
                return missing
            }
        }
    }
}
