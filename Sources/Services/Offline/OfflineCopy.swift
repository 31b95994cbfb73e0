import Foundation
import Promises

/// The collection's copy, as ``NetworkFallback`` keeps it: fresh listings replace the API's rows
/// and keep those changed here; the copy is dated by its last listing, or by the newest change
/// made here when it has none.
struct OfflineCopy<Resource: OfflineResource>: OfflineCache {
    typealias Value = OfflineSnapshot<Resource>

    let collection: OfflineCollection<Resource>

    init(_ collection: OfflineCollection<Resource>) {
        self.collection = collection
    }

    func save(_ value: OfflineSnapshot<Resource>, at date: Date) -> Promise<Void> {
        let storage = collection.storage
        return storage.tables.write { connection in
            try storage.saveCopy(value.values, at: date, in: connection)
        }
    }

    func load() -> Promise<Cached<OfflineSnapshot<Resource>>?> {
        let storage = collection.storage
        return storage.tables.read { connection in
            let snapshot = try OfflineCollection.snapshot(storage, in: connection)
            guard let savedAt = snapshot.savedAt else { return nil }
            return Cached(value: snapshot, savedAt: savedAt)
        }
    }
}
