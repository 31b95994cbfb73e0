import Foundation
import Promises

/// The collection's copy, as ``NetworkFallback`` keeps it: fresh listings replace the API's rows
/// and keep those changed here; the copy is dated by its last listing, or by the newest change
/// made here when it has none.
struct OfflineCopy<Resource: OfflineResource>: OfflineCache {
    let collection: OfflineCollection<Resource>

    init(_ collection: OfflineCollection<Resource>) {
        self.collection = collection
    }

    func save(_ value: [Resource], at date: Date) -> Promise<Void> {
        let storage = collection.storage
        return storage.tables.write { connection in
            try storage.replaceAPICopy(with: value, in: connection)
            try connection.setCacheStamp(storage.copyStamp, to: date)
        }
    }

    func load() -> Promise<Cached<[Resource]>?> {
        let storage = collection.storage
        return storage.tables.read { connection in
            guard let savedAt = try storage.copySavedAt(in: connection) else { return nil }
            return Cached(value: try storage.resources(in: connection), savedAt: savedAt)
        }
    }
}
