public import Promises
import Services

/// Resources the user keeps on the device whatever the ``StorageBudget``.
extension OfflineCollection {
    /// Keeps the resource `id` on this device: no eviction lets go of it until ``unpin(id:)``.
    /// A pin outlives the process; pinning twice is pinning once.
    ///
    /// - Parameter id: Its identifier; one made here that the API replaced pins the API's.
    /// - Returns: A promise that settles once the pin is kept.
    public func pin(id: String) -> Promise<Void> {
        setPinned(true, id: id)
    }

    /// Lets the resource `id` go under the budget again, as the rows saved longest ago do.
    ///
    /// - Parameter id: Its identifier.
    /// - Returns: A promise that settles once the pin is gone.
    public func unpin(id: String) -> Promise<Void> {
        setPinned(false, id: id)
    }

    /// The pinned resources' identifiers, in no particular order.
    public func pinnedIDs() -> Promise<[String]> {
        let collection = collection
        return storage.tables.read { connection in
            try connection.query("SELECT id FROM offline_pins WHERE collection = ?", [.text(collection)]) {
                try $0.string("id")
            }
        }
    }

    private func setPinned(_ pinned: Bool, id: String) -> Promise<Void> {
        let (collection, tables) = (collection, storage.tables)
        return currentID(of: id).then(on: .inline) { id in
            tables.write { connection in
                _ = try connection.execute(
                    pinned
                        ? "INSERT OR IGNORE INTO offline_pins (collection, id) VALUES (?, ?)"
                        : "DELETE FROM offline_pins WHERE collection = ? AND id = ?",
                    [.text(collection), .text(id)])
            }
        }
    }
}
