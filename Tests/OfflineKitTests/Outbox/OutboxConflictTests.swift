import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// Versions and conflicts (`OutboxReplay+Answers.swift`, `Outbox+Resolve.swift`, `JSONMerge`):
/// two devices, two files, one API that another device may change behind either's back.
@Suite("Outbox: versions and conflicts")
struct OutboxConflictTests {
    let folder = TemporaryFolder("OutboxConflictTests")
    let api = TestResourceAPI(
        collection: "notes", resources: [["id": "n1", "title": "Shopping", "text": "milk"]])

    /// The API, and a device that has pulled its notes.
    func start() async throws -> (TestHTTPServer, OutboxDevice) {
        let server = try TestHTTPServer(responder: api.respond)
        let device = try OutboxDevice(folder, "phone", server)
        await device.pull()
        return (server, device)
    }

    @Test("both sides change the same field: a conflict, held with the API's copy; nothing overwritten")
    func sameFieldIsAConflict() async throws {
        // Given
        let (server, phone) = try await start()
        defer { server.stop() }
        await phone.edit("n1", ["text": "eggs"])
        api.edit("n1", ["text": "bread"])

        // When
        let report = await phone.sync()

        // Then
        #expect(report?.conflicted.map(\.localID) == ["n1"])
        #expect(api.field("text", of: "n1") == "bread")
        guard case .conflicted(let theirs?, false)? = await phone.status()?.state(of: "n1") else {
            Issue.record("not a conflict: \(String(describing: await phone.status()))")
            return
        }
        #expect(JSONMerge.version(of: theirs) == "2")
    }

    @Test("keeping mine sends the change again over the API's version; keeping theirs takes the API's copy")
    func resolveBothWays() async throws {
        for keeping in [Outbox.Keeping.mine, .theirs] {
            // Given: a conflict on the same field
            let (server, phone) = try await start()
            defer { server.stop() }
            await phone.edit("n1", ["text": "eggs"])
            api.edit("n1", ["text": "bread \(keeping)"])
            _ = await phone.sync()

            // When
            let resolved = await phone.resolve("n1", keeping: keeping)
            let report = await phone.sync()

            // Then
            #expect(resolved == 1)
            #expect(await phone.status() == .empty)
            let kept = keeping == .mine ? "eggs" : "bread \(keeping)"
            #expect(api.field("text", of: "n1") == kept, "\(keeping)")
            #expect(await phone.field("text", of: "n1") == kept, "\(keeping)")
            #expect(report?.sent.count == (keeping == .mine ? 1 : 0))
            api.edit("n1", ["text": "milk"])
        }
    }

    @Test("the two sides change different fields: merged field by field, sent, and said so")
    func differentFieldsMerge() async throws {
        // Given
        let (server, phone) = try await start()
        defer { server.stop() }
        await phone.edit("n1", ["text": "eggs"])
        api.edit("n1", ["title": "Groceries"])

        // When
        let report = await phone.sync()

        // Then
        #expect(report?.merged.map(\.localID) == ["n1"])
        #expect(report?.sent.count == 1)
        #expect(api.field("text", of: "n1") == "eggs" && api.field("title", of: "n1") == "Groceries")
        #expect(await phone.field("title", of: "n1") == "Groceries")
        #expect(await phone.status() == .empty)
    }

    @Test(
        "a 412 whose copy is the one the change was made from merges nothing: not reported merged; sent again once, then a conflict"
    )
    func spurious412IsNotAMerge() async throws {
        // Given: the API answers every PUT 412 with the very copy the phone edited
        let (server, phone) = try await start()
        defer { server.stop() }
        await phone.edit("n1", ["text": "eggs"])
        api.refuse(
            "PUT /notes/n1", status: 412,
            body: #"{"id": "n1", "text": "milk", "title": "Shopping", "version": "1"}"#)

        // When
        let report = await phone.sync()

        // Then
        #expect(report?.merged.isEmpty == true)
        #expect(report?.conflicted.map(\.localID) == ["n1"])
        #expect(server.requests.filter { $0.hasPrefix("PUT") }.count == 2)
    }

    @Test("an edit here of a note deleted there: a conflict; keeping mine creates it again")
    func editOfDeletedNote() async throws {
        // Given
        let (server, phone) = try await start()
        defer { server.stop() }
        await phone.edit("n1", ["text": "eggs"])
        api.delete("n1")

        // When
        _ = await phone.sync()
        let state = await phone.status()?.state(of: "n1")
        _ = await phone.resolve("n1", keeping: .mine, recreatingAt: "notes")
        let report = await phone.sync()

        // Then
        #expect(state == .conflicted(theirs: nil, deletedOnServer: true))
        #expect(report?.sent.first?.method == .post)
        #expect(api.ids.count == 1 && api.field("text", of: api.ids[0]) == "eggs")
    }

    @Test("keeping theirs of a note deleted there gives up the later changes too: nothing left to send")
    func keepTheirsOfDeletedNoteDropsLaterChanges() async throws {
        // Given: an edit held as a conflict with the API's delete, and another edit after it
        let (server, phone) = try await start()
        defer { server.stop() }
        await phone.edit("n1", ["text": "eggs"])
        api.delete("n1")
        _ = await phone.sync()
        await phone.edit("n1", ["title": "Breakfast"])

        // When
        let given = await phone.resolve("n1", keeping: .theirs)
        let report = await phone.sync()

        // Then
        #expect(given == 2)
        #expect(report?.sent.isEmpty == true)
        #expect(await phone.status() == .empty)
        #expect(api.ids.isEmpty)
    }

    @Test("an edit here of a note deleted there, settled with a merge: created again, the API naming it")
    func mergeOfDeletedNoteIsCreatedAgain() async throws {
        // Given: an API that keeps what is posted to it
        let posted = Locked<[Data]>([])
        let server = try TestHTTPServer { [api] request in
            if request.method == "POST" { posted.withLock { $0.append(request.body) } }
            return api.respond(request)
        }
        defer { server.stop() }
        let phone = try OutboxDevice(folder, "phone", server)
        await phone.pull()
        await phone.edit("n1", ["text": "eggs"])
        api.delete("n1")
        _ = await phone.sync()

        // When
        let merged = Data(#"{"id": "n1", "title": "Shopping", "text": "eggs and milk"}"#.utf8)
        _ = await PromiseExpectations.value(
            of: phone.outbox.resolve(localID: "n1", merged: merged, recreatingAt: "notes") { _ in })
        let report = await phone.sync()

        // Then: posted to the collection without the old id
        #expect(report?.sent.map(\.method) == [HTTPMethod.post])
        #expect(api.ids.count == 1 && api.ids.first != "n1")
        #expect(api.field("text", of: api.ids.first ?? "") == "eggs and milk")
        let body = posted.withLock { $0.first }.flatMap { try? JSONSerialization.jsonObject(with: $0) }
        #expect((body as? [String: Any])?.keys.sorted() == ["text", "title"])
    }

    @Test(
        "a delete here of a note edited there: a conflict, not a silent delete; keeping theirs brings it back"
    )
    func deleteOfEditedNote() async throws {
        // Given
        let (server, phone) = try await start()
        defer { server.stop() }
        await phone.delete("n1")
        api.edit("n1", ["text": "bread"])

        // When
        let report = await phone.sync()
        _ = await phone.resolve("n1", keeping: .theirs)

        // Then
        #expect(report?.conflicted.map(\.method) == [.delete])
        #expect(api.field("text", of: "n1") == "bread")
        #expect(await phone.field("text", of: "n1") == "bread")
        #expect(await phone.status() == .empty)
    }

    @Test("a delete here of a note edited there, settled with a merge: the merge goes as the update")
    func deleteSettledWithAMerge() async throws {
        // Given: the delete held as a conflict with the API's edit
        let (server, phone) = try await start()
        defer { server.stop() }
        await phone.delete("n1")
        api.edit("n1", ["text": "bread"])
        _ = await phone.sync()

        // When
        let merged = Data(#"{"id": "n1", "title": "Shopping", "text": "bread, not milk"}"#.utf8)
        let resolved = await PromiseExpectations.value(
            of: phone.outbox.resolve(localID: "n1", merged: merged) { _ in })
        let report = await phone.sync()

        // Then
        #expect(resolved == 1)
        #expect(report?.sent.map(\.method) == [HTTPMethod.put])
        #expect(api.field("text", of: "n1") == "bread, not milk")
    }

    @Test(
        "a conflict holds the later changes of its note, not those of others; after resolving, they go in order"
    )
    func conflictHoldsItsNoteOnly() async throws {
        // Given: two notes; n1 conflicts, then is changed again here, and n2 is changed too
        let api = TestResourceAPI(
            collection: "notes",
            resources: [
                ["id": "n1", "title": "Shopping", "text": "milk"],
                ["id": "n2", "title": "Ideas", "text": "a"],
            ])
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let phone = try OutboxDevice(folder, "phone", server)
        await phone.pull()
        await phone.edit("n1", ["text": "eggs"])
        api.edit("n1", ["text": "bread"])
        _ = await phone.sync()
        await phone.edit("n1", ["title": "Later"])
        await phone.edit("n2", ["text": "b"])

        // When
        let held = await phone.sync()
        _ = await phone.resolve("n1", keeping: .mine)
        let after = await phone.sync()

        // Then: while n1 is held, only n2 goes; then both of n1's, with no second conflict
        #expect(held?.sent.map(\.localID) == ["n2"])
        #expect(api.field("text", of: "n2") == "b")
        // The later change was made on top of this device's own: it goes with the version the first
        // was answered with, needing no merge.
        #expect(after?.sent.count == 2 && after?.conflicted.isEmpty == true && after?.merged.isEmpty == true)
        #expect(api.field("text", of: "n1") == "eggs" && api.field("title", of: "n1") == "Later")
    }

    @Test("every update and delete carries If-Match with the version it was made from")
    func ifMatchIsSent() async throws {
        // Given: an API that refuses unconditional writes
        api.requiresIfMatch = true
        let (server, phone) = try await start()
        defer { server.stop() }
        await phone.edit("n1", ["text": "eggs"])

        // When
        let report = await phone.sync()

        // Then
        #expect(report?.sent.count == 1)
        #expect(api.field("text", of: "n1") == "eggs")
    }

    @Test("a change made while the one before it was in flight goes with the version that one was answered")
    func nextChangeTakesTheAnsweredVersion() async throws {
        // Given: the API holds the first edit until a second is made here
        let (arrived, arrival) = Promise<Void>.pending()
        let release = DispatchSemaphore(value: 0)
        let held = Locked(false)
        let server = try TestHTTPServer { [api] request in
            let firstPut =
                request.method == "PUT"
                && held.withLock { was in
                    defer { was = true }
                    return !was
                }
            if firstPut {
                arrival.fulfill(())
                release.wait()
            }
            return api.respond(request)
        }
        defer { server.stop() }
        // However the test ends, the held answer is let go, and the server can stop.
        defer { release.signal() }
        let phone = try OutboxDevice(folder, "phone", server)
        await phone.pull()
        await phone.edit("n1", ["text": "eggs"])

        // When
        let syncing = phone.outbox.sync(with: phone.client) { _, _, _ in nil }
        _ = await PromiseExpectations.value(of: arrived)
        await phone.edit("n1", ["title": "Breakfast"])
        release.signal()
        let report = await PromiseExpectations.value(of: syncing)

        // Then: two updates, the second on the first's version: no 412, no merge
        #expect(report?.sent.count == 2 && report?.merged.isEmpty == true)
        #expect(server.requests.filter { $0.hasPrefix("PUT") }.count == 2)
        #expect(api.field("text", of: "n1") == "eggs" && api.field("title", of: "n1") == "Breakfast")
    }
}
