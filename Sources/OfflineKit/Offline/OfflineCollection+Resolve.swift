import Foundation
public import Promises
import Services

/// Settling a conflict: keeping mine, keeping theirs, or a merged value.
extension OfflineCollection {
    /// The same collection, settling the conflicts a sync meets with `rule` first: a value it
    /// gives is sent (with `If-Match` of the API's version) and shown; `nil` leaves the conflict
    /// to the field-by-field merge, and then to the user.
    ///
    /// ```swift
    /// let notes = OfflineCollection<Note>(database: database, collection: "notes", client: api)
    ///     .merging { base, mine, theirs in
    ///         Note(id: mine.id, version: theirs.version, title: theirs.title, text: mine.text + "\n" + theirs.text)
    ///     }
    /// ```
    ///
    /// - Parameter rule: Base (when known), mine and theirs, to the merged value or `nil`.
    /// - Returns: The collection with the rule.
    public func merging(_ rule: @escaping OfflineMergeRule<Resource>) -> OfflineCollection {
        var merging = self
        merging.mergeRule = { base, mineJSON, theirsJSON in
            guard let mine = try? APIClient.decode(Resource.self, from: mineJSON),
                let theirs = try? APIClient.decode(Resource.self, from: theirsJSON),
                var merged = rule(
                    base.flatMap { try? APIClient.decode(Resource.self, from: $0) }, mine, theirs)
            else { return nil }
            merged.id = mine.id
            merged.version = theirs.version
            // Their JSON with the fields the merged value sets differently: what the model does
            // not know (a field a newer API added) stays as the API has it.
            return Self.deciding(theirsJSON, from: theirs, to: merged)
        }
        return merging
    }

    /// The same collection, deciding one field of a conflict with `decide` and leaving the others
    /// to the field-by-field merge: for a field every edit changes (an `updatedAt`), which would
    /// otherwise make every two edits a conflict, even of different fields.
    ///
    /// ```swift
    /// let tasks = OfflineCollection<PlannedTask>(database: database, collection: "tasks", client: api)
    ///     .merging(\.updatedAt) { mine, theirs in max(mine, theirs) }
    /// ```
    ///
    /// - Parameters:
    ///   - field: The field.
    ///   - decide: Mine and theirs, to the value both take.
    /// - Returns: The collection with the rule; a rule given with ``merging(_:)`` goes first.
    public func merging<Value>(
        _ field: any WritableKeyPath<Resource, Value> & Sendable,
        _ decide: @escaping @Sendable (_ mine: Value, _ theirs: Value) -> Value
    ) -> OfflineCollection {
        var merging = self
        merging.fieldRules.append { mine, theirs in
            let decided = decide(mine[keyPath: field], theirs[keyPath: field])
            mine[keyPath: field] = decided
            theirs[keyPath: field] = decided
        }
        return merging
    }

    /// What a sync settles a conflict with: the rule of ``merging(_:)`` first, then, with field
    /// rules (``merging(_:_:)``), the field-by-field merge of mine and theirs once those fields
    /// agree; `nil` leaves it to the plain field-by-field merge.
    ///
    /// The fields the rules decide are written into mine and theirs as the JSON came, so that the
    /// merge keeps what the model does not know (a field a newer API added): the resource is not
    /// sent as the model would encode it.
    var conflictRule: Outbox.MergeRule? {
        let (whole, fields) = (mergeRule, fieldRules)
        guard !fields.isEmpty else { return whole }
        return { base, mine, theirs in
            if let merged = whole?(base, mine, theirs) { return merged }
            guard let base, let mineValue = try? APIClient.decode(Resource.self, from: mine),
                let theirsValue = try? APIClient.decode(Resource.self, from: theirs)
            else { return nil }
            var (decidedMine, decidedTheirs) = (mineValue, theirsValue)
            for rule in fields { rule(&decidedMine, &decidedTheirs) }
            guard let mine = Self.deciding(mine, from: mineValue, to: decidedMine),
                let theirs = Self.deciding(theirs, from: theirsValue, to: decidedTheirs)
            else { return nil }
            return JSONMerge.threeWay(base: base, mine: mine, theirs: theirs)
        }
    }

    /// `json` with the fields that differ between `value` (decoded from it) and `decided`, and
    /// every other field as it came.
    private static func deciding(_ json: Data, from value: Resource, to decided: Resource) -> Data? {
        guard let before = try? APIClient.encode(value), let after = try? APIClient.encode(decided) else {
            return nil
        }
        return JSONMerge.rebase(after, madeOn: before, onto: json)
    }

    /// The conflict of resource `id`, as the resource, if one waits for the user.
    ///
    /// - Parameter id: The resource's identifier.
    /// - Returns: A promise of the conflict, or `nil`.
    public func conflict(id: String) -> Promise<OfflineConflict<Resource>?> {
        let outbox = outbox
        return storage.tables.read { connection in
            try outbox.entries(for: id, in: connection).lazy.compactMap(OfflineConflict<Resource>.init).first
        }
    }

    /// Settles the conflict of resource `id` as the user chose, in one transaction; the changes go
    /// with the next sync.
    ///
    /// | resolution | the API changed it | the API deleted it |
    /// | --- | --- | --- |
    /// | ``OfflineResolution/mine`` | sent again with `If-Match` of the API's version | created again |
    /// | ``OfflineResolution/theirs`` | the change dropped, the API's copy shown; later changes moved onto it | every change dropped, the resource gone |
    /// | ``OfflineResolution/merged(_:)`` | the merged value shown and sent with `If-Match` of the API's version; later changes moved onto it | the merged value created again |
    ///
    /// - Parameters:
    ///   - id: The resource's identifier.
    ///   - resolution: What to keep.
    /// - Returns: A promise of how many changes were resolved or dropped; 0 when none was in
    ///   conflict.
    public func resolve(id: String, with resolution: OfflineResolution<Resource>) -> Promise<Int> {
        switch resolution {
        case .mine: return resolve(id: id, keeping: .mine)
        case .theirs: return resolve(id: id, keeping: .theirs)
        case .merged(var value):
            value.id = id
            let storage = storage
            let json: Data
            do { json = try APIClient.encode(value) } catch {
                return Promise(error: ServiceRequestError(error))
            }
            return outbox.resolve(localID: id, merged: json, recreatingAt: collection) { connection in
                try Self.showLastChange(of: id, storage, connection)
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
                    guard FailureClass(error).isGone else {
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
                try connection.forgetCacheValidators(storage.copyStamp)
            }
            // Changes made after the one given up still wait, moved onto the API's copy: the
            // screen shows the last of them.
            try Self.showLastChange(of: id, storage, connection)
        }
    }

    /// Shows resource `id` as its last waiting change leaves it: deleted, or that change's value.
    static func showLastChange(
        of id: String, _ storage: AnyOfflineStorage<Resource>, _ connection: Connection
    ) throws {
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
