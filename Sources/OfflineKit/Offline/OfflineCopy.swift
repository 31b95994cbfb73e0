import Foundation
import Promises
import Services

/// The collection's copy, as `NetworkFallback` keeps it: fresh listings replace the API's rows
/// and keep those changed here; the copy is dated by its last listing, or by the newest change
/// made here when it has none.
struct OfflineCopy<Resource: OfflineResource>: OfflineCache {
    typealias Value = OfflineSnapshot<Resource>

    let collection: OfflineCollection<Resource>

    init(_ collection: OfflineCollection<Resource>) {
        self.collection = collection
    }

    func save(_ value: OfflineSnapshot<Resource>, at date: Date) -> Promise<Void> {
        save(value, at: date, validators: nil)
    }

    func save(_ value: OfflineSnapshot<Resource>, at date: Date, validators: CacheValidators?) -> Promise<
        Void
    > {
        let storage = collection.storage
        return storage.tables.write { connection in
            try storage.saveCopy(value.values, at: date, validators: validators, in: connection)
        }
    }

    func validators() -> Promise<CacheValidators?> {
        let storage = collection.storage
        return storage.tables.read { try $0.cacheValidators(storage.copyStamp) }
    }

    /// The copy's date moved on, its validators kept; the snapshot read in the same transaction.
    func confirm(at date: Date) -> Promise<Cached<OfflineSnapshot<Resource>>?> {
        let storage = collection.storage
        return storage.tables.write { connection in
            guard try storage.confirmCopy(at: date, in: connection) else { return nil }
            return Cached(value: try storage.snapshot(in: connection), savedAt: date)
        }
    }

    func load() -> Promise<Cached<OfflineSnapshot<Resource>>?> {
        let storage = collection.storage
        return storage.tables.read { connection in
            let snapshot = try storage.snapshot(in: connection)
            guard let savedAt = snapshot.savedAt else { return nil }
            return Cached(value: snapshot, savedAt: savedAt)
        }
    }
}
