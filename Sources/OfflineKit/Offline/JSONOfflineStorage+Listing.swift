import Foundation
import Services

extension JSONOfflineStorage {
    /// A row as a listing compares it: the API's JSON (`nil` for a row changed here) and its place.
    private typealias StoredRow = (json: Data?, position: Int)

    /// The listing's resources become the API's rows, in its order; a row changed here keeps its
    /// values and takes the listing's place.
    ///
    /// Only what differs is written: a resource listed as it is stored, at the same place, is left
    /// alone, so a listing of an unchanged collection (an API without validators answers one
    /// whole each time) writes no row. The rows are read first, the API's with their JSON as
    /// stored: the one copy held beside the listing.
    func replaceAPICopy(with fresh: [Resource], in connection: Connection) throws {
        var stored = try storedRows(in: connection)
        var listed = Set<IdentifierKey>()
        listed.reserveCapacity(fresh.count)
        let savedAt = SQLValue.real(now().timeIntervalSince1970)
        for (position, resource) in fresh.enumerated() {
            let id = resource.id ?? ""
            let key = IdentifierKey(id)
            guard listed.insert(key).inserted else {
                // Listed twice: the first is kept, at the later place.
                try move(id, to: position, in: connection)
                continue
            }
            let json = try APIClient.encode(resource)
            switch stored.removeValue(forKey: key) {
            case .some(let row) where row.json == nil:
                // Changed here: its values stay; it takes the listing's place.
                guard row.position != position else { continue }
                try move(id, to: position, in: connection)
            case .some(let row):
                guard row.json != json || row.position != position else { continue }
                try connection.execute(
                    "UPDATE offline_resources SET json = ?, position = ?, used_at = ? WHERE collection = ? AND id = ?",
                    [.blob(json), .integer(Int64(position)), savedAt, .text(collection), .text(id)])
            case .none:
                try connection.execute(
                    """
                    INSERT INTO offline_resources (collection, id, json, origin, position, used_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(collection), .text(id), .blob(json), .text(OfflineOrigin.api.rawValue),
                        .integer(Int64(position)), savedAt,
                    ])
            }
        }
        // The API's rows it no longer lists; those changed here stay until their change is sent.
        for (key, row) in stored where row.json != nil {
            try connection.execute(
                "DELETE FROM offline_resources WHERE collection = ? AND id = ?",
                [.text(collection), .text(key.id)])
        }
    }

    /// Gives the row `id` the listing's place `position`, its values untouched.
    private func move(_ id: String, to position: Int, in connection: Connection) throws {
        try connection.execute(
            "UPDATE offline_resources SET position = ? WHERE collection = ? AND id = ?",
            [.integer(Int64(position)), .text(collection), .text(id)])
    }

    /// The collection's rows as stored, by identifier: each one's place, and the JSON of the
    /// API's (`nil` for a row changed here, whose values a listing does not touch).
    private func storedRows(in connection: Connection) throws -> [IdentifierKey: StoredRow] {
        let rows = try connection.query(
            "SELECT id, origin, json, position FROM offline_resources WHERE collection = ?",
            [.text(collection)]
        ) { row in
            let json = try row.string("origin") == OfflineOrigin.api.rawValue ? try row.data("json") : nil
            return (IdentifierKey(try row.string("id")), (json: json, position: try row.int("position")))
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }
}
