import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// Changes that survive an app update: a collection written at model 1 (a note with `text`) and
/// opened by the next version at model 3 (`text` renamed `body`, then `pinned` added), over a real
/// SQLite file and an API that takes only the current shape.
@Suite("OfflineCollection model versions")
struct OfflineModelTests {
    struct NoteV1: OfflineResource, Equatable {
        var id: String?
        var version: String?
        var title: String
        var text: String
    }

    struct NoteV3: OfflineResource, Equatable {
        var id: String?
        var version: String?
        var title: String
        var body: String
        var pinned: Bool
    }

    static let steps: [OfflineModelStep] = [.renaming("text", to: "body"), .adding("pinned", default: false)]

    let folder = TemporaryFolder("OfflineModelTests")
    /// The API after the update: a body in the old shape, or missing a field, is refused (`400`).
    let api = TestResourceAPI(
        collection: "notes",
        resources: [
            ["id": "n1", "title": "Shopping", "text": "milk"], ["id": "n2", "title": "Old", "text": "gone"],
            ["id": "n3", "title": "Trip", "text": "Rome"], ["id": "n4", "title": "Keep", "text": "as is"],
        ],
        accepting: { body in
            guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
                object["text"] == nil, object["body"] is String, object["pinned"] is Bool
            else { return nil }
            return body
        })

    func database() throws -> Database { try Database(at: folder.file("notes.sqlite")) }

    func client(_ server: TestHTTPServer) -> APIClient {
        APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
    }

    /// The first version of the app: notes at model 1, online or not.
    func version1(_ server: TestHTTPServer, online: Bool) throws -> OfflineCollection<NoteV1> {
        OfflineCollection<NoteV1>(
            database: try database(), collection: "notes", client: client(server),
            reachability: online ? AssumeReachable() : OfflineCollectionTests.Offline())
    }

    /// The next version: the same notes at model 3.
    func version3(_ server: TestHTTPServer) throws -> OfflineCollection<NoteV3> {
        OfflineCollection<NoteV3>(database: try database(), collection: "notes", client: client(server))
            .model(version: 3, steps: Self.steps)
    }

    /// Given, under version 1: a note ("New", "idea") created offline.
    func noteCreatedAtVersion1(_ server: TestHTTPServer) async throws {
        _ = await PromiseExpectations.value(
            of: try version1(server, online: false).create(NoteV1(title: "New", text: "idea")))
    }

    /// Given, under version 1: the notes listed, then offline a create, an update and a delete
    /// queued, and an edit the API answers with a conflict.
    func changesQueuedAtVersion1(_ server: TestHTTPServer) async throws {
        _ = await PromiseExpectations.value(of: try version1(server, online: true).list())
        let offline = try version1(server, online: false)
        _ = await PromiseExpectations.value(of: offline.update(id: "n3") { $0.title = "Mine" })
        api.edit("n3", ["title": "Theirs"])
        _ = await PromiseExpectations.value(of: try version1(server, online: true).sync())
        _ = await PromiseExpectations.value(of: offline.create(NoteV1(title: "New", text: "idea")))
        _ = await PromiseExpectations.value(of: offline.update(id: "n1") { $0.text = "bread" })
        _ = await PromiseExpectations.value(of: offline.delete(id: "n2"))
    }

    @Test("a create, an update, a delete and a conflict queued at model 1 are sent once, in model 3's shape")
    func queuedChangesSentInTheNewShape() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await changesQueuedAtVersion1(server)
        let notes = try version3(server)

        // When
        let before = await PromiseExpectations.value(of: notes.snapshot())
        let conflict = try #require(await PromiseExpectations.value(of: notes.conflict(id: "n3")) ?? nil)
        let report = await PromiseExpectations.value(of: notes.sync())
        _ = await PromiseExpectations.value(of: notes.resolve(id: "n3", with: .mine))
        _ = await PromiseExpectations.value(of: notes.sync())
        let again = await PromiseExpectations.value(of: notes.sync())
        let copy = await PromiseExpectations.value(of: notes.snapshot())

        // Then: each change once, in the new shape (the API refuses any other), the conflict's
        // sides brought over too, and the copy read at model 3
        #expect(
            before?.values.first { $0.id == "n4" }
                == NoteV3(id: "n4", version: "1", title: "Keep", body: "as is", pinned: false))
        #expect(conflict.mine?.title == "Mine" && conflict.theirs?.title == "Theirs")
        #expect(conflict.mine?.body == "Rome" && conflict.theirs?.pinned == false)
        #expect(report?.sent.count == 3 && report?.refused.isEmpty == true, "\(String(describing: report))")
        // Each once; changes to different notes go together, in any order.
        #expect(
            api.applied.sorted() == ["DELETE /notes/n2", "POST /notes", "PUT /notes/n1", "PUT /notes/n3"])
        #expect(again?.sent.isEmpty == true)
        #expect(api.field("body", of: "n1") == "bread" && api.field("title", of: "n3") == "Mine")
        #expect(Set(copy?.values.map(\.title) ?? []) == ["Shopping", "Mine", "New", "Keep"])
        #expect(copy?.values.allSatisfy { !$0.pinned } == true)
    }

    @Test(
        "a change a step cannot bring over, or whose row it cannot, is damaged with the reason, never sent; the others go",
        arguments: ["change", "both", "row"])
    func failedStepDamagesOneChange(failing: String) async throws {
        // Given: two notes created offline at model 1, one the step cannot read: its queued
        // change (a create's body has no id), its row here (which has), or both
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let offline = try version1(server, online: false)
        let bad = try #require(
            await PromiseExpectations.value(of: offline.create(NoteV1(title: "Bad", text: "unreadable"))))
        _ = await PromiseExpectations.value(of: offline.create(NoteV1(title: "Good", text: "fine")))
        let picky = OfflineModelStep { object in
            let isRow = object["id"] != nil
            if object["text"] as? String == "unreadable", failing == "both" || (failing == "row") == isRow {
                throw OfflineModelError.unreadable("no text to read")
            }
            try Self.steps[0].apply(&object)
        }

        // When
        let notes = OfflineCollection<NoteV3>(
            database: try database(), collection: "notes", client: client(server)
        )
        .model(version: 3, steps: [picky, Self.steps[1]])
        let report = await PromiseExpectations.value(of: notes.sync())
        let status = await PromiseExpectations.value(of: notes.status())
        let dropped = await PromiseExpectations.value(of: notes.discard(id: bad.id ?? ""))

        // Then
        #expect(report?.sent.count == 1 && api.applied == ["POST /notes"])
        guard case .damaged(let reason)? = status?.state(of: bad.id ?? "") else {
            Issue.record("not damaged: \(String(describing: status))")
            return
        }
        #expect(reason.contains("model version 3") && reason.contains("no text to read"), "\(reason)")
        #expect(dropped?.count == 1)
        #expect(await PromiseExpectations.value(of: notes.status()) == .empty)
    }

    @Test("an older app on a file a newer one wrote refuses it whole: nothing read, written or sent")
    func olderAppRefusesNewerData() async throws {
        // Given: the file at model 3, with a change waiting
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let offline = OfflineCollection<NoteV3>(
            database: try database(), collection: "notes", client: client(server),
            reachability: OfflineCollectionTests.Offline()
        ).model(version: 3, steps: Self.steps)
        _ = await PromiseExpectations.value(of: offline.create(NoteV3(title: "New", body: "b", pinned: true)))

        // When: the app before the update opens it
        let older = try version1(server, online: true)
        let listed = await PromiseExpectations.error(of: older.list())
        let synced = await PromiseExpectations.error(of: older.sync())
        let created = await PromiseExpectations.error(of: older.create(NoteV1(title: "x", text: "y")))

        // Then
        let newer = OfflineModelError.newerData(collection: "notes", stored: 3, reads: 1)
        for error in [listed, synced, created] {
            #expect(
                ServiceRequestError(error ?? ServiceRequestError.unknownError) == newer.serviceRequestError)
        }
        #expect(api.applied.isEmpty)
        #expect(await PromiseExpectations.value(of: offline.outbox.entries())?.count == 1)
    }

    @Test("the steps: a rename, a default only where missing, a drop, a split, typed values")
    func steps() throws {
        // Given
        var object: [String: Any] = ["text": "Rome\nthe trip", "pinned": true, "legacy": 1]
        struct Old: Decodable { let title: String }
        struct New: Encodable { let title: String, words: Int }

        // When
        try OfflineModelStep.adding("pinned", default: false).apply(&object)
        try OfflineModelStep.adding("tags", default: ["a"]).apply(&object)
        try OfflineModelStep.dropping("legacy").apply(&object)
        try OfflineModelStep.splitting("text", into: "title", "body") { text in
            let parts = text.split(separator: "\n", maxSplits: 1).map(String.init)
            return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
        }.apply(&object)
        var typed: [String: Any] = ["title": "one two"]
        try OfflineModelStep.converting(Old.self, to: New.self) {
            New(title: $0.title, words: $0.title.split(separator: " ").count)
        }.apply(&typed)
        var renamed: [String: Any] = ["text": "x"]
        try OfflineModelStep.renaming("text", to: "body").apply(&renamed)

        // Then
        #expect(object["pinned"] as? Bool == true && object["tags"] as? [String] == ["a"])
        #expect(object["legacy"] == nil && object["text"] == nil)
        #expect(object["title"] as? String == "Rome" && object["body"] as? String == "the trip")
        #expect(typed["words"] as? Int == 2 && typed["title"] as? String == "one two")
        #expect(renamed["body"] as? String == "x" && renamed["text"] == nil)
    }

    @Test("one version's two changes, combined in one step, are both applied before the change is sent")
    func combinedStepAppliesEveryChange() async throws {
        // Given: a note created offline at model 1
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await noteCreatedAtVersion1(server)

        // When: the next version renamed one field and added another in one version
        let notes = OfflineCollection<NoteV3>(
            database: try database(), collection: "notes", client: client(server)
        )
        .model(version: 2, steps: [.combining(Self.steps)])
        let report = await PromiseExpectations.value(of: notes.sync())
        let copy = await PromiseExpectations.value(of: notes.snapshot())

        // Then: sent once in the new shape (the API refuses any other), and read here in it
        #expect(report?.sent.count == 1 && report?.refused.isEmpty == true, "\(String(describing: report))")
        #expect(api.applied == ["POST /notes"])
        #expect(copy?.values.map(\.body) == ["idea"] && copy?.values.first?.pinned == false)
    }

    @Test(
        "a step count other than one a version refuses the collection before anything is read or sent",
        arguments: [(2, 2), (3, 1), (1, 1), (0, 0)])
    func mismatchedStepsRefuseTheCollection(version: Int, steps: Int) async throws {
        // Given: a note created offline at model 1
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await noteCreatedAtVersion1(server)

        // When: the next version declares too many steps, too few, or no version at all
        let notes = OfflineCollection<NoteV3>(
            database: try database(), collection: "notes", client: client(server)
        )
        .model(version: version, steps: Array(Self.steps.prefix(steps)))
        let synced = await PromiseExpectations.error(of: notes.sync())
        let listed = await PromiseExpectations.error(of: notes.snapshot())

        // Then: a clear error, never a step dropped silently; the change still waits at model 1
        let refused = OfflineModelError.stepsMissing(collection: "notes", version: version, steps: steps)
        for error in [synced, listed] {
            #expect(
                ServiceRequestError(error ?? ServiceRequestError.unknownError) == refused.serviceRequestError)
        }
        #expect(refused.description.contains(version < 1 ? "versions start at 1" : "exactly \(version - 1)"))
        #expect(api.applied.isEmpty)
        let stored = try await PromiseExpectations.value(
            of: database().read { connection in
                try connection.scalar("SELECT version FROM offline_models WHERE feature = 'notes'")
            })
        #expect(stored == .some(nil), "the file records no version")
    }

    @Test(
        "a file recording a model version below 1 is damaged: a clear error, never a trap, nothing written",
        arguments: [Int64(0), -1])
    func versionBelowOneIsDamage(recorded: Int64) async throws {
        // Given: a note created offline, and the file's version row set to a value no app writes
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await noteCreatedAtVersion1(server)
        _ = await PromiseExpectations.value(
            of: try database().write { connection in
                try connection.execute(
                    "INSERT OR REPLACE INTO offline_models (feature, version) VALUES ('notes', ?)",
                    [.integer(recorded)])
            })

        // When: the next version opens it
        let notes = try version3(server)
        let synced = await PromiseExpectations.error(of: notes.sync())
        let listed = await PromiseExpectations.error(of: notes.snapshot())

        // Then
        for error in [synced, listed] {
            let message = ServiceRequestError(error ?? ServiceRequestError.unknownError).userMessage
            #expect(message.contains("damaged") && message.contains("version \(recorded)"), "\(message)")
        }
        #expect(api.applied.isEmpty)
        let stored = try await PromiseExpectations.value(
            of: database().read { connection in
                try connection.scalar("SELECT version FROM offline_models WHERE feature = 'notes'")
            })
        #expect(stored == .integer(recorded))
    }

    @Test("rows this version cannot read are named as this device's data, not the server's")
    func unreadableRowsAreTheDevices() async throws {
        // Given: a note created offline at model 1, and a version that changed the shape without a step
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        try await noteCreatedAtVersion1(server)
        let notes = OfflineCollection<NoteV3>(
            database: try database(), collection: "notes", client: client(server))

        // When
        let error = await PromiseExpectations.error(of: notes.snapshot())

        // Then
        let message = ServiceRequestError(error ?? ServiceRequestError.unknownError).userMessage
        #expect(message.contains("this device's saved notes") && !message.contains("server"), "\(message)")
        // and why, for the log: the field the row does not have
        let reason = (error as? OfflineModelError)?.description ?? ""
        #expect(reason.contains("cannot be read as NoteV3") && reason.contains("\"body\""), "\(reason)")
    }

    @Test("an upgrade starts from the version the file holds: a step already applied is not applied again")
    func upgradeStartsFromStoredVersion() async throws {
        // Given: steps that each add a mark to the title, and a note at model 1 brought to model 2
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let marking = { (mark: String) in
            OfflineModelStep { $0["title"] = ($0["title"] as? String ?? "") + mark }
        }
        _ = await PromiseExpectations.value(
            of: try version1(server, online: false).create(NoteV1(title: "T", text: "t")))
        let atTwo = OfflineCollection<NoteV1>(
            database: try database(), collection: "notes", client: client(server)
        )
        .model(version: 2, steps: [marking("+1")])
        _ = await PromiseExpectations.value(of: atTwo.snapshot())

        // When: the next version opens it at model 3
        let atThree = OfflineCollection<NoteV1>(
            database: try database(), collection: "notes", client: client(server)
        )
        .model(version: 3, steps: [marking("+1"), marking("+2")])
        let copy = await PromiseExpectations.value(of: atThree.snapshot())

        // Then
        #expect(copy?.values.map(\.title) == ["T+1+2"])
    }

    @Test(
        "a change that is not a JSON object is damaged by an upgrade; a conflict's API copy that is not one is kept as it came",
        arguments: [("body", true), ("theirs", false)])
    func columnNotAnObject(column: String, damaged: Bool) async throws {
        // Given: a note created offline at model 1, one column of its change not an object (a
        // conflict's copy may be any answer, such as text)
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        _ = await PromiseExpectations.value(
            of: try version1(server, online: false).create(NoteV1(title: "T", text: "t")))
        _ = await PromiseExpectations.value(
            of: try database().write {
                // sql-constant: the column is one of the test's two arguments.
                try $0.execute(
                    "UPDATE outbox SET \(column) = CAST('Try again later' AS BLOB) WHERE feature = 'notes'")
            })

        // When: opened at model 2
        let notes = OfflineCollection<NoteV1>(
            database: try database(), collection: "notes", client: client(server)
        )
        .model(version: 2, steps: [OfflineModelStep { $0["title"] = ($0["title"] as? String ?? "") + "+1" }])
        _ = await PromiseExpectations.value(of: notes.snapshot())

        // Then: the change damaged with the reason, or its API copy carried over as it was
        let change = await PromiseExpectations.value(
            of: try database().read {
                // sql-constant: the column is one of the test's two arguments.
                try $0.query(
                    "SELECT damage, CAST(\(column) AS TEXT) AS value FROM outbox WHERE feature = 'notes'"
                )
                .first
            })
        let damage = change??["damage"]
        #expect(damaged ? damage != .null : damage == .null, "\(String(describing: damage))")
        #expect(change??["value"] == .text("Try again later"))
    }

    @Test("a row of the copy a step cannot bring over leaves the copy: every read works, the others stay")
    func unreadableRowLeavesTheCopy() async throws {
        // Given: the API's notes listed at model 1
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        _ = await PromiseExpectations.value(of: try version1(server, online: true).list())
        let picky = OfflineModelStep { object in
            if object["id"] as? String == "n4" { throw OfflineModelError.unreadable("cannot read it") }
            try Self.steps[0].apply(&object)
        }

        // When: opened at model 3, the first step failing for n4 alone
        let notes = OfflineCollection<NoteV3>(
            database: try database(), collection: "notes", client: client(server)
        )
        .model(version: 3, steps: [picky, Self.steps[1]])
        let copy = await PromiseExpectations.value(of: notes.snapshot())
        let again = await PromiseExpectations.value(of: notes.list(policy: .cacheOnly))

        // Then
        #expect(Set(copy?.values.compactMap(\.id) ?? []) == ["n1", "n2", "n3"])
        #expect(again?.value.values.count == 3)
    }
}
