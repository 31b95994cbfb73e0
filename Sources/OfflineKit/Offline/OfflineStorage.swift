public import Services

/// Where an ``OfflineCollection`` keeps its resources: the tables of the copy, and the outbox its
/// changes wait in, in the same database.
///
/// ``OfflineCollection/init(database:collection:client:reachability:makeID:now:)`` keeps any
/// resource as JSON in a table shared by collections; a feature with tables of its own (columns
/// to query, data it must not write, such as a full card number) conforms its tables to this and
/// gets every rule of the collection on them (``OfflineCollection/init(storage:client:reachability:makeID:now:)``).
///
/// Every method runs inside the transaction the collection opened on ``tables``: the resource and
/// its outbox entry are written together or not at all.
public protocol OfflineStorage: Sendable {
    /// The resource kept.
    associatedtype Resource: OfflineResource

    /// The feature's tables, brought up to date before any read or write.
    var tables: FeatureDatabase { get }
    /// Where the changes made here wait for the API; its ``Outbox/feature`` is the collection's
    /// path, such as `notes`.
    var outbox: Outbox { get }
    /// The tables ``resources(in:)`` reads, for ``OfflineCollection/observe(on:_:)``; empty (the
    /// default) to be read again after a change to any table.
    var observedTables: Set<String> { get }
    /// The name the copy's date is kept under (`Connection/setCacheStamp(_:to:)`).
    var copyStamp: String { get }

    /// The resources shown, in the order shown: those deleted here left out.
    func resources(in connection: Connection) throws -> [Resource]
    /// One resource, deleted here or not, and whether it was; `nil` when none has `id`.
    func resource(id: String, in connection: Connection) throws -> (value: Resource, deleted: Bool)?
    /// Writes `resource` under its `id` as coming from `origin`, replacing any row with that id
    /// (and a deletion mark).
    func put(_ resource: Resource, from origin: OfflineOrigin, in connection: Connection) throws
    /// Marks resource `id` deleted here: hidden, kept until the API deleted it too.
    func markDeleted(id: String, in connection: Connection) throws
    /// Removes resource `id`; with `origin`, only when its row came from there.
    func remove(id: String, from origin: OfflineOrigin?, in connection: Connection) throws
    /// Replaces the API's copy by `fresh`, as listed, leaving the rows changed here alone.
    func replaceAPICopy(with fresh: [Resource], in connection: Connection) throws
    /// Up to `limit` of the resources shown, in `order`, after `cursor` (from the first without
    /// one), each with its value of the order's field. The default reads every resource and sorts
    /// them; a storage with an index for the order seeks to the cursor instead, so that every page
    /// costs the same however deep.
    func page(_ order: OfflineOrder, after cursor: OfflinePageCursor?, limit: Int, in connection: Connection)
        throws -> [(value: Resource, key: SQLValue)]
    /// Makes reading pages in `order` cheap (an index), in a write transaction before the first
    /// page; the default does nothing.
    func preparePages(_ order: OfflineOrder, in connection: Connection) throws
    /// The resources `query` keeps, in its order, after the one whose terms' values are `cursor`,
    /// at most its limit, each with the values of its terms (the query's fields, then what breaks
    /// their ties). The default reads every resource and filters and sorts them in memory; a
    /// storage with its own tables answers in SQL instead.
    func query(_ query: OfflineQuery, after cursor: [SQLValue]?, in connection: Connection) throws
        -> [(value: Resource, keys: [SQLValue])]
    /// How many resources `filter` keeps; the default counts what ``query(_:after:in:)`` returns.
    func count(_ filter: OfflineFilter?, in connection: Connection) throws -> Int
    /// Whether any resource holds a value in `field`: what tells a field the model has from a
    /// misspelt one.
    func hasField(_ field: String, in connection: Connection) throws -> Bool
    /// Makes queries on `fields` cheap (an index on them, in that order), in a write transaction;
    /// the default does nothing.
    func prepareQueries(on fields: [String], in connection: Connection) throws
    /// The identifiers of the rows changed here (deleted ones included): each should have a
    /// change in ``outbox``, and one that has none is shown damaged, never synced.
    func idsChangedHere(in connection: Connection) throws -> [String]
    /// Marks resource `id` read now, by the storage's clock (``OfflineCollection/fetch(id:)`` from
    /// the copy), for a ``StorageBudget`` that lets go of the rows used longest ago first; the
    /// default does nothing.
    func markRead(id: String, in connection: Connection) throws
}

extension OfflineStorage {
    /// None named: the collection's observations read again after a change to any table.
    public var observedTables: Set<String> { [] }

    /// None: a storage that does not say which rows it changed here is trusted to have an outbox
    /// entry for each.
    public func idsChangedHere(in connection: Connection) throws -> [String] { [] }

    /// Nothing: a storage that keeps no date of use is weighed by its own dates.
    public func markRead(id: String, in connection: Connection) throws {}
}
