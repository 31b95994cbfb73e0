public import Foundation
public import Promises
public import Services

/// A collection of the API's resources that an app reads and edits offline as well as online:
/// what a feature needs for an editable offline screen, in a few lines.
///
/// | it does | how |
/// | --- | --- |
/// | lists | as a `CachePolicy` says (`NetworkFallback`), with this device's waiting changes laid over the API's answer (created ones listed, deleted ones hidden), through fresh listings, each resource with its ``SyncState`` (``OfflineSnapshot``); a listing only reads |
/// | watches | ``observe(on:_:)``: a snapshot after every change, in this process or another |
/// | creates, updates, deletes | online at once; when the API cannot be reached, or the resource has changes waiting, kept here with the change queued (``Outbox``), in one transaction |
/// | never out of order | a refused or conflicted change holds the later ones of its resource |
/// | never over someone else's change | updates and deletes carry `If-Match` of the version they were made from; a change made meanwhile elsewhere is merged field by field or held as a conflict; online, the write is refused (`ServiceRequestError/httpStatus(_:)` 412) |
/// | never lost in flight | a write whose answer never came waits under its idempotency key |
/// | renames | a created resource takes the API's identifier, in its later changes too |
/// | related records | fields that name other resources (``referencing(_:)``) wait for their create, then name the API's identifier |
///
/// ```swift
/// let notes = OfflineCollection<Note>(database: database, collection: "notes", client: api)
/// notes.list().done { fetched in view.show(fetched.value.items) }
/// notes.update(note)   // online, or kept here and sent by the next sync
/// ```
public struct OfflineCollection<Resource: OfflineResource>: Sendable {
    /// The changes made here that wait for the API.
    public internal(set) var outbox: Outbox
    /// The first path segment of the resources, such as `notes`; also the outbox's feature name.
    public let collection: String
    let client: APIClient
    let reachability: any ConnectivityMonitor
    var storage: AnyOfflineStorage<Resource>
    let makeID: @Sendable () -> String
    let now: @Sendable () -> Date
    /// The collection's own merge rule, as JSON (``merging(_:)``).
    var mergeRule: Outbox.MergeRule?
    /// The fields the collection decides itself in a conflict (``merging(_:_:)``), each setting
    /// mine and theirs to one value before the field-by-field merge.
    var fieldRules: [@Sendable (_ mine: inout Resource, _ theirs: inout Resource) -> Void] = []
    /// Where a create is POSTed, when not to ``collection`` (``creating(at:)``).
    var createPath: (@Sendable (Resource) -> String)?
    /// Edits of one resource through ``update(id:_:)``, one after the other.
    let edits = Serial<String>()
    /// The API's change feed (``following(_:)``), asked by ``refresh()``.
    var feed: (@Sendable (String) -> Promise<ChangeFeedPage<Resource>>)?

    /// Makes the collection `collection` of the API `client` reaches, kept in `database` as JSON.
    ///
    /// - Parameters:
    ///   - database: The app's database; the collection's rows share one table with other
    ///     collections, apart by name.
    ///   - collection: The path of the resources, such as `notes`.
    ///   - client: The API's client.
    ///   - reachability: Whether to try the API at all; by default always.
    ///   - makeID: The identifier of a resource created here, until the API gives its own.
    ///   - now: The clock that dates the copy and the changes.
    public init(
        database: Database, collection: String, client: APIClient,
        reachability: any ConnectivityMonitor = .assumeReachable,
        makeID: @escaping @Sendable () -> String = { "local-" + UUID().uuidString },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            storage: JSONOfflineStorage<Resource>(database: database, collection: collection, now: now),
            client: client, reachability: reachability, makeID: makeID, now: now)
    }

    /// Makes the collection kept in a feature's own tables: `storage`'s outbox names its path.
    ///
    /// - Parameters:
    ///   - storage: The feature's tables and outbox.
    ///   - client: The API's client.
    ///   - reachability: Whether to try the API at all; by default always.
    ///   - makeID: The identifier of a resource created here, until the API gives its own.
    ///   - now: The clock that dates the copy.
    public init<Storage: OfflineStorage>(
        storage: Storage, client: APIClient, reachability: any ConnectivityMonitor = .assumeReachable,
        makeID: @escaping @Sendable () -> String = { "local-" + UUID().uuidString },
        now: @escaping @Sendable () -> Date = { Date() }
    ) where Storage.Resource == Resource {
        self.storage = AnyOfflineStorage(
            storage,
            owner: client.credentials.map { OfflineOwner(feature: storage.outbox.feature, credentials: $0) })
        self.client = client
        self.reachability = reachability
        self.makeID = makeID
        self.now = now
        outbox = storage.outbox
        collection = storage.outbox.feature
        // Version 1 unless `model(version:steps:)` says otherwise: a file a newer app wrote is
        // refused rather than written over.
        gate(version: 1, steps: [])
    }

    /// The resources as `policy` reads them, with this device's changes laid over the API's
    /// answer and each one's sync state, read as one snapshot. A listing only reads: the changes
    /// that wait are sent by ``sync()`` (or a ``SyncScheduler``), unless `sendingFirst` asks for
    /// them to go before the listing. Offline before anything was listed from the API, it is this
    /// device's own resources (none, on a new device), from `DataSource/nothingSaved`: the user
    /// can add to the collection now. Only `CachePolicy/cacheOnly` rejects then
    /// (`ServiceRequestError/noData`).
    ///
    /// - Parameters:
    ///   - policy: How the read uses the copy and the API; network first by default.
    ///   - sendingFirst: Whether to send the waiting changes before asking the API (when the read
    ///     may ask it); a failed send does not fail the listing.
    ///   - showingCopy: With `CachePolicy/cacheThenNetwork`, given the copy at once.
    /// - Returns: A promise of the snapshot and where it came from.
    public func list(
        policy: CachePolicy = .networkFirst, sendingFirst: Bool = false,
        showingCopy: @escaping @Sendable (Fetched<OfflineSnapshot<Resource>>) -> Void = { _ in }
    ) -> Promise<Fetched<OfflineSnapshot<Resource>>> {
        let (client, collection) = (client, collection)
        return list(policy: policy, sendingFirst: sendingFirst, showingCopy: showingCopy) { validators in
            client.get(collection, as: [Resource].self, ifChangedSince: validators)
        }
    }

    /// The resources as `policy` reads them, asking the API with `fetch`: for a feature whose API
    /// lists differently (another path, its own errors, an order of its own).
    ///
    /// - Parameters:
    ///   - policy: How the read uses the copy and the API.
    ///   - sendingFirst: Whether to send the waiting changes before asking the API.
    ///   - showingCopy: With `CachePolicy/cacheThenNetwork`, given the copy at once.
    ///   - fetch: Lists the resources in the API.
    /// - Returns: A promise of the snapshot and where it came from.
    public func list(
        policy: CachePolicy, sendingFirst: Bool = false,
        showingCopy: @escaping @Sendable (Fetched<OfflineSnapshot<Resource>>) -> Void,
        fetching fetch: @escaping @Sendable () -> Promise<[Resource]>
    ) -> Promise<Fetched<OfflineSnapshot<Resource>>> {
        list(policy: policy, sendingFirst: sendingFirst, showingCopy: showingCopy) { _ in
            fetch().map(on: .inline) { .changed($0, validators: nil) }
        }
    }

    /// The resources as `policy` reads them, asking the API with a conditional GET: `fetch` is
    /// given the validators of the answer the copy was saved from (`nil` when none), and a
    /// `ConditionalGet/notModified` keeps the copy, dated now, with nothing decoded or written.
    ///
    /// - Parameters:
    ///   - policy: How the read uses the copy and the API.
    ///   - sendingFirst: Whether to send the waiting changes before asking the API.
    ///   - showingCopy: With `CachePolicy/cacheThenNetwork`, given the copy at once.
    ///   - fetch: Lists the resources in the API, conditionally when given validators.
    /// - Returns: A promise of the snapshot and where it came from.
    public func list(
        policy: CachePolicy, sendingFirst: Bool = false,
        showingCopy: @escaping @Sendable (Fetched<OfflineSnapshot<Resource>>) -> Void,
        fetchingConditionally fetch:
            @escaping @Sendable (CacheValidators?) -> Promise<ConditionalGet<[Resource]>>
    ) -> Promise<Fetched<OfflineSnapshot<Resource>>> {
        let fallback = NetworkFallback(cache: OfflineCopy(self), reachability: reachability, now: now)
        let local = self
        let asks = reachability.isReachable && policy != .cacheOnly
        // Nothing is asked of the API before the stored data is at the collection's model. A
        // create whose answer was lost is asked again first (under its key): the listing may hold
        // what it made, which would otherwise show beside this device's copy, twice.
        let sent = storage.tables.opened.then(on: .inline) { () -> Promise<Void> in
            guard asks else { return .value(()) }
            return sendingFirst ? local.syncIgnoringFailure() : local.replayingLostCreates()
        }
        return sent.then(on: .inline) {
            fallback.fetch(policy: policy, showingCopy: showingCopy) { validators in
                fetch(validators).map(on: .inline) { answer -> ConditionalGet<OfflineSnapshot<Resource>> in
                    guard case .changed(let resources, let validators) = answer else { return .notModified }
                    return .changed(OfflineSnapshot(answer: resources), validators: validators)
                }
            }
        }
        .then(on: .inline) { fetched -> Promise<Fetched<OfflineSnapshot<Resource>>> in
            // Fresh from the API and saved: read back, with this device's changes laid over it (a
            // copy confirmed by a `304` was read so already).
            guard fetched.source == .network, fetched.cacheWriteError == nil, fetched.value.savedAt == nil
            else { return .value(fetched) }
            return local.snapshot().map(on: .inline) { snapshot in fetched.map { _ in snapshot } }
        }
        .recover(on: .inline) { error -> Promise<Fetched<OfflineSnapshot<Resource>>> in
            // Offline with nothing from the API yet: a collection the user can add to lists what
            // it holds (nothing, on a new device), not "no data". Asked for the copy alone, it
            // says there is none.
            guard policy != .cacheOnly, ServiceRequestError(error) == .noData else { throw error }
            return local.snapshot().map(on: .inline) { Fetched(value: $0, source: .nothingSaved) }
        }
    }

    /// Sends the waiting changes; a failure is left for the read that follows to meet.
    func syncIgnoringFailure() -> Promise<Void> {
        sync().asVoid().recover(on: .inline) { _ in Guarantee.value(()) }.asPromise()
    }

    /// Sends the waiting changes when a create among them was sent and never answered; else
    /// nothing.
    func replayingLostCreates() -> Promise<Void> {
        let (local, feature) = (self, collection)
        return storage.tables.read { try OutboxTable.createAnswerLost(feature, $0) }
            .then(on: .inline) { lost in lost ? local.syncIgnoringFailure() : .value(()) }
    }

    /// The path of one resource.
    func path(of id: String) -> String {
        "\(collection)/\(APIClient.pathSegment(id))"
    }

    /// The resource as kept here.
    func local(_ id: String) -> Promise<Resource> {
        let storage = storage
        return storage.tables.read { connection in
            guard let row = try storage.resource(id: id, in: connection), !row.deleted else {
                throw ServiceRequestError.noData
            }
            return row.value
        }.get(on: .inline) { _ in
            // Its use dated, for a storage budget, after the read: a failure to write it (a full
            // disk, a suspended database) costs nothing but the date.
            storage.tables.write { try storage.markRead(id: id, in: $0) }.cauterize()
        }
    }

    /// `local()` when the resource has changes waiting (they go first) or the API is known to be
    /// out of reach, else `remote()`.
    func queued<Value: Sendable>(
        _ id: String, _ local: @escaping @Sendable () -> Promise<Value>,
        orElse remote: @escaping @Sendable () -> Promise<Value>
    ) -> Promise<Value> {
        guard reachability.isReachable else { return local() }
        let outbox = outbox
        return storage.tables.read { try !outbox.entries(for: id, in: $0).isEmpty }.then(on: .inline) {
            $0 ? local() : remote()
        }
    }
}
