import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One device of a notes feature: a file of its own, its outbox, and the API both devices share.
/// A note is kept here as the API's JSON (with its `version`); an edit records a PUT based on it.
struct OutboxDevice {
    let database: Database
    let outbox: Outbox
    let client: APIClient

    /// A client whose timeout only a hang reaches: a request the API holds waits for the test's
    /// next step, which a loaded machine may put off for minutes (InFlightTests).
    static func patientClient(_ server: TestHTTPServer) -> APIClient {
        APIClient(baseURL: server.baseURL, timeout: 900, retry: .never)
    }

    init(_ folder: TemporaryFolder, _ name: String, _ server: TestHTTPServer) throws {
        database = try Database(
            at: folder.file("\(name).sqlite"),
            migrations: [
                Migration(version: 1, sql: "CREATE TABLE notes (id TEXT PRIMARY KEY, json BLOB NOT NULL)")
            ])
        // Failed changes go again at once: these tests have no clock to move past a wait.
        outbox = Outbox(
            database: database, feature: "notes",
            retry: RetryPolicy(maximumRetries: 4, baseDelay: 0, maximumDelay: 0))
        client = Self.patientClient(server)
    }

    /// Takes the API's notes as they are now (asking again, a few times, an API that fails).
    func pull() async {
        for _ in 0..<10 {
            guard let data = try? await client.send(.get, "notes", body: nil).value else { continue }
            _ = await PromiseExpectations.value(
                of: database.write { connection in
                    let notes = (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
                    for note in notes {
                        let json = try JSONSerialization.data(withJSONObject: note, options: [.sortedKeys])
                        try Self.store(json, connection)
                    }
                })
            return
        }
    }

    /// Creates a note here under `localID` with `fields`, and queues its POST.
    @discardableResult
    func create(_ localID: String, _ fields: [String: String]) async -> Outbox.Recorded? {
        let outbox = outbox
        return await PromiseExpectations.value(
            of: outbox.ready.then(on: .inline) { [database] in
                database.write { connection in
                    var note: [String: Any] = fields
                    note["id"] = localID
                    let json = try JSONSerialization.data(withJSONObject: note, options: [.sortedKeys])
                    try Self.store(json, connection)
                    return try outbox.record(.post, "notes", body: json, localID: localID, in: connection)
                }
            })
    }

    /// Changes `fields` of note `id` here, and queues the PUT based on the copy it changed.
    @discardableResult
    func edit(_ id: String, _ fields: [String: String]) async -> Outbox.Recorded? {
        let outbox = outbox
        return await PromiseExpectations.value(
            of: outbox.ready.then(on: .inline) { [database] in
                database.write { connection in
                    let base = try Self.json(id, connection) ?? Data("{}".utf8)
                    var note = (try JSONSerialization.jsonObject(with: base) as? [String: Any]) ?? [:]
                    for (key, value) in fields { note[key] = value }
                    let mine = try JSONSerialization.data(withJSONObject: note, options: [.sortedKeys])
                    try Self.store(mine, connection)
                    return try outbox.record(
                        .put, "notes/\(id)", body: mine, localID: id,
                        baseVersion: JSONMerge.version(of: base),
                        base: base, in: connection)
                }
            })
    }

    /// Deletes note `id` here, and queues the DELETE based on the copy it had.
    @discardableResult
    func delete(_ id: String) async -> Outbox.Recorded? {
        let outbox = outbox
        return await PromiseExpectations.value(
            of: outbox.ready.then(on: .inline) { [database] in
                database.write { connection in
                    let base = try Self.json(id, connection)
                    try connection.execute("DELETE FROM notes WHERE id = ?", [.text(id)])
                    return try outbox.record(
                        .delete, "notes/\(id)", body: nil, localID: id,
                        baseVersion: base.flatMap(JSONMerge.version(of:)), base: base, in: connection)
                }
            })
    }

    func sync() async -> OutboxSyncReport? {
        await PromiseExpectations.value(
            of: outbox.sync(with: client) { entry, answer, connection in
                guard !answer.isEmpty else {
                    if entry.method == .delete {
                        try connection.execute("DELETE FROM notes WHERE id = ?", [.text(entry.localID)])
                    }
                    return nil
                }
                if entry.method == .post, let id = JSONMerge.id(of: answer), id != entry.localID {
                    try connection.execute("DELETE FROM notes WHERE id = ?", [.text(entry.localID)])
                    try Self.store(answer, connection)
                    return id
                }
                try Self.store(answer, connection)
                return nil
            })
    }

    func resolve(_ id: String, keeping: Outbox.Keeping, recreatingAt: String? = nil) async -> Int? {
        await PromiseExpectations.value(
            of: outbox.resolve(localID: id, keeping: keeping, recreatingAt: recreatingAt) {
                theirs, connection in
                if let theirs {
                    try Self.store(theirs, connection)
                } else {
                    try connection.execute("DELETE FROM notes WHERE id = ?", [.text(id)])
                }
            })
    }

    func status() async -> OutboxStatus? {
        await PromiseExpectations.value(of: outbox.status())
    }

    /// The identifiers of the notes kept here.
    func ids() async -> [String] {
        await PromiseExpectations.value(
            of: database.read { try $0.query("SELECT id FROM notes ORDER BY id").map { try $0.string("id") } }
        ) ?? []
    }

    /// Field `field` of note `id` here.
    func field(_ field: String, of id: String) async -> String? {
        let json = await PromiseExpectations.value(of: database.read { try Self.json(id, $0) }) ?? nil
        return json.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }?[field]
            as? String
    }

    private static func json(_ id: String, _ connection: Connection) throws -> Data? {
        try connection.query("SELECT json FROM notes WHERE id = ?", [.text(id)]).first.map {
            try $0.data("json")
        }
    }

    private static func store(_ json: Data, _ connection: Connection) throws {
        guard let id = JSONMerge.id(of: json) else { return }
        try connection.execute(
            "INSERT OR REPLACE INTO notes (id, json) VALUES (?, ?)", [.text(id), .blob(json)])
    }
}

extension JSONMerge {
    /// The `id` field of a JSON object, for the tests' notes.
    static func id(of data: Data) -> String? {
        ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["id"] as? String
    }
}
