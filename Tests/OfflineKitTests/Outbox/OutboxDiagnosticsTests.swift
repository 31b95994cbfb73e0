import Foundation
import OfflineKit
import PromiseMVPTesting
import Services
import Testing

/// `Outbox.diagnostics()`: what waits and why, read at once, with no body in it.
@Suite("Outbox diagnostics")
struct OutboxDiagnosticsTests {
    struct Note: OfflineResource, Equatable {
        var id: String?
        var version: String?
        var text: String
    }

    @Test(
        "each waiting change says its kind, ids, state and the API's reason; sent ones and bodies are not there"
    )
    func waitingChangesAndWhy() async throws {
        // Given: an API that refuses a note saying "refuse me"; three notes made offline, synced
        let api = TestResourceAPI(collection: "notes") { body in
            String(decoding: body, as: UTF8.self).contains("refuse me") ? nil : body
        }
        let server = try TestHTTPServer(responder: api.respond)
        let database = try Database.inMemory()
        let client = APIClient(baseURL: server.baseURL, timeout: 900, retry: .never)
        let offline = OfflineCollection<Note>(
            database: database, collection: "notes", client: client,
            reachability: ManualConnectivity(.unreachable))
        for text in ["kept", "refuse me", "secret 4111 1111 1111 1111"] {
            _ = await PromiseExpectations.value(of: offline.create(Note(text: text)))
        }
        let waiting = try #require(await PromiseExpectations.value(of: offline.outbox.diagnostics()))
        _ = await PromiseExpectations.value(of: offline.sync())
        // When
        let after = try #require(await PromiseExpectations.value(of: offline.outbox.diagnostics()))
        // Then: before, three creates waiting; after, the refused one alone, with the API's reason
        #expect(waiting.changes.map(\.kind) == ["create", "create", "create"])
        #expect(waiting.changes.allSatisfy { $0.state == "waiting" && $0.apiID == nil })
        #expect(after.feature == "notes" && after.changes.count == 1)
        let refused = try #require(after.changes.first)
        #expect(refused.state == "refused" && refused.reason?.isEmpty == false && refused.failures == 0)
        #expect(refused.localID == waiting.changes[1].localID)
        #expect(after.identifiers == 2 && after.claim == nil && after.owner == nil && after.modelVersion == 1)
        // and nothing a change carries
        // and a change made after a create was answered shows both ids
        let kept = try #require(api.resources(as: Note.self).first { $0.text == "kept" }?.id)
        _ = await PromiseExpectations.value(
            of: offline.update(id: waiting.changes[0].localID) { $0.text = "changed" })
        let edited = try #require(await PromiseExpectations.value(of: offline.outbox.diagnostics()))
        #expect(
            edited.changes.map { [$0.kind, $0.localID, $0.apiID ?? "none"] }.last
                == ["update", waiting.changes[0].localID, kept])
        let encoded = String(decoding: try JSONEncoder().encode([waiting, after]), as: UTF8.self)
        // (the whole number: a local id's UUID or a date's digits may hold "4111" by chance)
        #expect(!encoded.contains("4111 1111 1111 1111") && !encoded.contains("secret"))
        // and the bodies only when asked for
        let bodies = try #require(
            await PromiseExpectations.value(of: offline.outbox.diagnostics(includingBodies: true)))
        #expect(bodies.changes.compactMap(\.body).contains { $0.contains("refuse me") })
        #expect(waiting.changes.allSatisfy { $0.body == nil })
    }

    @Test("a change whose stored body is not JSON is damaged, with why; one sent unanswered is sent")
    func damagedBody() async throws {
        // Given: a note made offline, its stored body then broken
        let database = try Database.inMemory()
        let closed = try ClosedPort()
        let offline = OfflineCollection<Note>(
            database: database, collection: "notes",
            client: APIClient(baseURL: closed.baseURL, timeout: 900, retry: .never),
            reachability: ManualConnectivity(.unreachable))
        _ = await PromiseExpectations.value(of: offline.create(Note(text: "kept")))
        _ = await PromiseExpectations.value(
            of: database.write { try $0.execute("UPDATE outbox SET body = CAST('{\"text\": ' AS BLOB)") })
        // and a second sent once, its answer never recorded
        _ = await PromiseExpectations.value(of: offline.create(Note(text: "sent")))
        _ = await PromiseExpectations.value(
            of: database.write { try $0.execute("UPDATE outbox SET attempted = 1 WHERE sequence = 2") })
        // When
        let snapshot = await PromiseExpectations.value(of: offline.outbox.diagnostics())
        // Then
        #expect(snapshot?.changes.map(\.state) == ["damaged", "waiting"])
        #expect(snapshot?.changes.map(\.sent) == [false, true])
        #expect(snapshot?.changes.first?.reason?.contains("not JSON") == true)
    }
}
