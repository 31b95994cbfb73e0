import Foundation

/// What a change the API accepted does to the copy here.
extension OfflineCollection {
    /// Makes the copy here what the API holds once it accepted `entry`; the API's identifier for a
    /// created resource.
    static func delivered(
        _ entry: OutboxEntry, _ answer: Data, _ storage: AnyOfflineStorage<Resource>, _ connection: Connection
    ) throws -> String? {
        let id = entry.localID
        let settled = try storage.outbox.entries(for: id, in: connection).isEmpty
        let answered = try? APIClient.decode(Resource.self, from: answer)
        switch entry.method {
        case .post:
            guard var answered, let remoteID = answered.id, !remoteID.isEmpty else {
                // Delivered, answer unreadable: the API has it, under an identifier this device
                // cannot learn. Not refused (a retry would only get the same answer): the copy here
                // becomes the API's, so the next listing puts the API's own row in its place
                // instead of listing it twice.
                if let row = try storage.resource(id: id, in: connection) {
                    try storage.put(row.value, from: .api, in: connection)
                }
                return nil
            }
            if remoteID != id {
                try storage.remove(id: remoteID, from: nil, in: connection)
            }
            if settled {
                try storage.remove(id: id, from: nil, in: connection)
                answered.id = remoteID
                try storage.put(answered, from: .api, in: connection)
            } else if let row = try storage.resource(id: id, in: connection) {
                // Later changes of it wait: its local version stays, under the API's identifier.
                var local = row.value
                local.id = remoteID
                try storage.remove(id: id, from: nil, in: connection)
                try storage.put(local, from: .device, in: connection)
                if row.deleted { try storage.markDeleted(id: remoteID, in: connection) }
            }
            return remoteID
        case .put where settled:
            if var answered {
                answered.id = id
                try storage.put(answered, from: .api, in: connection)
            } else if let row = try storage.resource(id: id, in: connection) {
                try storage.put(row.value, from: .api, in: connection)
            }
        case .delete where settled:
            try storage.remove(id: id, from: nil, in: connection)
        default:
            break
        }
        return nil
    }
}
