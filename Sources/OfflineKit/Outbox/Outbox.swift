public import Foundation
public import Promises
public import Services

/// Changes made on this device that wait for the API: offline writes that are never lost.
///
/// A feature that writes through the API records each write the API could not take as an
/// ``OutboxEntry``, inside the same `Database/write(_:)` transaction as the local change, with
/// ``record(_:_:body:localID:idempotencyKey:mayHaveArrived:baseVersion:base:account:in:)``: a crash leaves both or neither. The feature
/// keeps showing its local change, marked with the ``SyncState`` that ``status()`` gives.
/// ``sync(with:delivered:)`` replays the entries in order when the API answers: in order per
/// resource, up to ``changesInFlight`` at once across resources (the first alone, so that an API
/// that is down or refuses the sign-in costs one request). A change that stops the sync (offline,
/// signed out, the API failing) stops new sends; those in flight finish and are recorded.
///
/// What each answer of the API does to an entry, and to the sync, is the one table of the
/// article "Offline writes" in this module's documentation.
///
/// An entry that is refused, stuck or damaged (its row cannot be read) is *held*: it, and every
/// later entry of the same resource, wait for the user; other resources' entries still go, so no
/// change overtakes one of its own resource that the user has not dealt with, and no change
/// blocks the changes of other resources forever. A change that names a resource whose create
/// has not been answered (related records, ``OfflineCollection/referencing(_:)``) is passed over
/// the same way until it has been, and every later change of its resource waits behind it.
///
/// Changes of one resource not sent yet are merged when recorded (see ``Recorded``): a create and
/// an update are one create with the latest body, two updates one update, an update and a delete
/// one delete, and a create and a delete nothing at all. Nothing is merged into an entry that may
/// have reached the API (sent by a sync, or recorded after an online attempt whose answer never
/// came): the API may already hold it as it was.
///
/// Every attempt carries the entry's `Idempotency-Key`, so a change whose answer was lost (or whose
/// process was killed before it could record the answer) is sent again with the same key and the
/// API applies it once. When a create's answer gives the resource the API's own identifier,
/// `delivered` returns it and the outbox rewrites the later entries of the same resource to it.
///
/// Several features share one file: each has its own name and sees its own entries. The table is
/// made by `Database/migrate(schema:_:)` under the schema `outbox`.
///
/// ```swift
/// let outbox = Outbox(database: database, feature: "notes")
/// database.write { connection in
///     try connection.execute("UPDATE notes SET text = ? WHERE id = ?", [.text(text), .text(id)])
///     try outbox.record(.put, "notes/\(id)", body: body, localID: id, in: connection)
/// }
/// ```
public struct Outbox: Sendable {
    /// Called inside the transaction that removes an entry the API accepted, with the API's
    /// answer, so the feature can make its local copy what the API now holds. Returns the API's
    /// identifier for the resource when it differs from the local one (a create), else `nil`.
    public typealias Delivery =
        @Sendable (_ entry: OutboxEntry, _ answer: Data, _ connection: Connection) throws -> String?

    /// The feature whose entries this outbox holds, such as `orders`.
    public let feature: String
    /// Fulfilled once the table exists; work issued through the outbox waits for it.
    public var ready: Promise<Void> { table.ready }
    var table: FeatureDatabase
    let now: @Sendable () -> Date
    private let retryPolicy: RetryPolicy
    /// What this process saw of other syncs' claims, shared by its syncs (see ``OutboxClaim``).
    let claimWatch: ClaimWatch
    /// The sync running, which a second caller joins: one at a time per outbox.
    private let running = InFlight<String, OutboxSyncReport>()

    /// How many changes a sync sends before the first is answered: ``standardChangesInFlight`` by
    /// default; 1 sends one at a time. Never two of one resource, never a change before the create
    /// of a resource it names was answered, each once: only changes with no reason to wait for
    /// each other are in flight together.
    public var changesInFlight = Outbox.standardChangesInFlight

    /// Where ``handOff(with:)`` writes the changes it hands to a transfer service, and
    /// where a sync reads the answers the service got; `nil` (the default) hands nothing off. A
    /// change handed off while no spool is set is taken back and sent by the sync itself.
    public var transferSpool: TransferSpool?

    /// Six changes in flight: as many requests as browsers and `URLSession` keep open to one
    /// host. At a phone's 50-150 ms round trip, one at a time makes 1,000 waiting changes take
    /// a minute or more; six at a time, about a sixth of it.
    public static let standardChangesInFlight = 6

    /// The schedule for an entry the API keeps failing: waits from 1 s, doubling with full
    /// jitter, up to 5 minutes; stuck at the fifth failure in a row (`maximumRetries` 4).
    public static var standardRetry: RetryPolicy {
        RetryPolicy(maximumRetries: 4, baseDelay: 1, maximumDelay: 300)
    }

    /// Makes the outbox of one feature, creating its table if the file has none.
    ///
    /// - Parameters:
    ///   - database: The app's database.
    ///   - feature: The feature's name; its entries are kept apart from other features'.
    ///   - retry: How long an entry the API failed waits before it is sent again (the policy's
    ///     ceiling for that attempt, jittered), and how many failures in a row make it stuck
    ///     (`maximumRetries` + 1); ``standardRetry`` by default.
    ///   - now: The clock that stamps new entries and times the waits.
    public init(
        database: Database, feature: String, retry: RetryPolicy = Outbox.standardRetry,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(database: database, feature: feature, retry: retry, now: now, claimWatch: ClaimWatch())
    }

    /// Makes the outbox, watching other syncs' claims on `claimWatch`'s clock (tests give theirs).
    init(
        database: Database, feature: String, retry: RetryPolicy, now: @escaping @Sendable () -> Date,
        claimWatch: ClaimWatch
    ) {
        self.feature = feature
        self.now = now
        self.retryPolicy = retry
        self.claimWatch = claimWatch
        table = FeatureDatabase(database, schema: "outbox", migrations: Self.migrations)
    }

    /// Every entry of this feature, in the order they are sent.
    ///
    /// - Returns: A promise of the entries.
    public func entries() -> Promise<[OutboxEntry]> {
        let feature = feature
        return table.read { try OutboxTable.entries(feature, nil, $0) }
    }

    /// When the newest change still kept in this outbox was made, read inside the caller's
    /// transaction; `nil` when none is. A feature's offline copy that has never been filled from the
    /// API dates itself by it, so that changes made before the first listing are still shown.
    ///
    /// - Parameter connection: The connection of the caller's transaction.
    /// - Returns: The time of the newest entry, or `nil`.
    /// - Throws: `DatabaseError`.
    public func newestChange(in connection: Connection) throws -> Date? {
        guard
            case .real(let seconds) = try connection.scalar(
                "SELECT max(created_at) FROM outbox WHERE feature = ?", [.text(feature)])
        else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// The entries of one resource, in order, read inside the caller's transaction.
    ///
    /// - Parameters:
    ///   - localID: The resource's identifier on this device.
    ///   - connection: The connection of the caller's transaction.
    /// - Returns: The entries.
    /// - Throws: `DatabaseError`.
    public func entries(for localID: String, in connection: Connection) throws -> [OutboxEntry] {
        try OutboxTable.entries(feature, localID, connection)
    }

    /// Sends the waiting entries in order, each with its idempotency key, until the end or until
    /// the API cannot take more; see the table in ``Outbox``. A sync asked for while one runs gets
    /// that one's report. One sync sends at a time per feature and file, across processes: while
    /// another process's sync sends, this one sends nothing and says so
    /// (``OutboxSyncReport/sendingElsewhere``).
    ///
    /// - Parameters:
    ///   - client: The API's client.
    ///   - delivered: Updates the feature's tables once the API accepted an entry.
    /// - Returns: A promise of what was sent, refused and left; rejected only when the database
    ///   cannot be read (a `ServiceRequestError`).
    public func sync(with client: APIClient, delivered: @escaping Delivery) -> Promise<OutboxSyncReport> {
        sync(with: client, merging: nil, delivered: delivered)
    }

    /// A feature's own merge rule, as JSON: given the base (when known), this device's change and
    /// the API's copy, the merged body, or `nil` to hold the conflict for the user.
    public typealias MergeRule = @Sendable (_ base: Data?, _ mine: Data, _ theirs: Data) -> Data?

    /// Sends the waiting entries as ``sync(with:delivered:)`` does, settling a conflict with
    /// `merging` first, before the field-by-field merge.
    ///
    /// - Parameters:
    ///   - client: The API's client.
    ///   - merging: The feature's merge rule; `nil` for the field-by-field merge alone.
    ///   - delivered: Updates the feature's tables once the API accepted an entry.
    /// - Returns: A promise of the run's report.
    public func sync(with client: APIClient, merging: MergeRule?, delivered: @escaping Delivery)
        -> Promise<OutboxSyncReport>
    {
        sync(with: client, merging: merging, preparing: nil, delivered: delivered)
    }

    /// Readies an entry for sending, inside the transaction that marks it sent: `nil` while it
    /// must wait (it names a resource whose create the API has not answered), else the entry as it
    /// is to be sent (its body naming the API's identifiers, written back to the table).
    typealias Preparation = @Sendable (_ entry: OutboxEntry, _ connection: Connection) throws -> OutboxEntry?

    /// Sends an entry another way than as a JSON request: a file's upload
    /// (``OfflineAttachments``). It answers with the body an API's answer would have, and calls
    /// `beat` as the transfer moves on, which renews the sync's claim.
    typealias Transport =
        @Sendable (_ entry: OutboxEntry, _ beat: @escaping @Sendable () -> Void) -> Promise<Data>

    /// Sends the waiting entries, each readied by `preparing` first (``OfflineCollection``'s
    /// references), through `transport` when there is one.
    func sync(
        with client: APIClient, merging: MergeRule?, preparing: Preparation?, transport: Transport? = nil,
        delivered: @escaping Delivery
    ) -> Promise<OutboxSyncReport> {
        let replay = OutboxReplay(
            feature: feature, database: table.database, client: client, delivered: delivered, merge: merging,
            retry: retryPolicy, now: now,
            claim: OutboxClaim(feature: feature, lease: client.timeout + 30, watch: claimWatch),
            prepare: preparing, inFlight: max(1, changesInFlight), transport: transport, spool: transferSpool)
        let ready = table.opened
        return running.join(feature) {
            ready.then(on: .inline) { replay.run() }
                .recover(on: .inline) { error -> Promise<OutboxSyncReport> in throw ServiceRequestError(error)
                }
        }
    }

    /// Sends a resource's refused, stuck and waiting changes at the next sync, in their place in
    /// the queue, with their count of failures and their wait (the backoff, or the API's
    /// `Retry-After`) cleared: the user asked for it now. A damaged change cannot be sent: discard
    /// it.
    ///
    /// - Parameter localID: The resource's identifier on this device.
    /// - Returns: A promise of how many changes wait again.
    public func retry(localID: String) -> Promise<Int> {
        let feature = feature
        return table.write { connection in
            try connection.execute(
                """
                UPDATE outbox SET refusal = NULL, stuck = 0, failures = 0, not_before = NULL
                WHERE feature = ? AND local_id = ?
                    AND (refusal IS NOT NULL OR stuck != 0 OR not_before IS NOT NULL)
                """,
                [.text(feature), .text(localID)])
        }
    }

    /// Drops every change of a resource that has a held one (refused, stuck or damaged), after
    /// `reverting` undid them in the feature's tables, in one transaction. A resource with nothing
    /// held is left alone. `reverting` is given the changes that can be read; a damaged one is
    /// dropped without it.
    ///
    /// - Parameters:
    ///   - localID: The resource's identifier on this device.
    ///   - reverting: Undoes the changes in the feature's tables; given the entries, in order.
    /// - Returns: A promise of the entries dropped; empty when nothing was held.
    public func discard(
        localID: String, reverting: @escaping @Sendable ([OutboxEntry], Connection) throws -> Void
    ) -> Promise<[OutboxEntry]> {
        let feature = feature
        return table.write { connection in
            let entries = try OutboxTable.entries(feature, localID, connection)
            guard entries.contains(where: \.isHeld) else { return [] }
            try reverting(entries.filter { !$0.isDamaged }, connection)
            try OutboxTable.drop(entries, of: localID, feature: feature, connection)
            return entries
        }
    }
}
