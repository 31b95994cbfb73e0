import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// `OutboxTable.swift`, its coalescing: changes of one resource not sent yet merge when recorded; an
/// entry that may have reached the API, or that is held, is never merged into.
@Suite("Outbox: coalescing")
struct OutboxCoalescingTests {
    /// Records `method` on note `id` with `text`, and gives what recording did.
    static func record(
        _ database: Database, _ outbox: Outbox, _ method: HTTPMethod, _ id: String, _ text: String = "",
        mayHaveArrived: Bool = false
    ) async -> Outbox.Recorded? {
        await PromiseExpectations.value(
            of: outbox.ready.then(on: .inline) {
                database.write { connection in
                    try outbox.record(
                        method, method == .post ? "notes" : "notes/\(id)",
                        body: method == .delete ? nil : Data(#"{"text":"\#(text)"}"#.utf8), localID: id,
                        mayHaveArrived: mayHaveArrived, in: connection)
                }
            })
    }

    /// What each waiting entry would send, as `METHOD path body`.
    static func waiting(_ outbox: Outbox) async -> [String] {
        (await PromiseExpectations.value(of: outbox.entries()) ?? []).map {
            "\($0.method.rawValue) \($0.path) \($0.body.map { String(decoding: $0, as: UTF8.self) } ?? "-")"
        }
    }

    @Test("create + update is one create with the latest body")
    func createThenUpdate() async throws {
        // Given
        let (database, outbox) = try OutboxTests.notes()
        let created = await Self.record(database, outbox, .post, "n", "one")

        // When
        let updated = await Self.record(database, outbox, .put, "n", "two")

        // Then
        #expect(updated == .merged(into: try #require(created?.entry).replacingBody(#"{"text":"two"}"#)))
        #expect(await Self.waiting(outbox) == [#"POST notes {"text":"two"}"#])
    }

    @Test("update + update is one update with the later body")
    func updateThenUpdate() async throws {
        // Given
        let (database, outbox) = try OutboxTests.notes()
        _ = await Self.record(database, outbox, .put, "n", "one")

        // When
        _ = await Self.record(database, outbox, .put, "n", "two")

        // Then
        #expect(await Self.waiting(outbox) == [#"PUT notes/n {"text":"two"}"#])
    }

    @Test("create + delete sends nothing")
    func createThenDelete() async throws {
        // Given
        let (database, outbox) = try OutboxTests.notes()
        _ = await Self.record(database, outbox, .post, "n", "one")
        _ = await Self.record(database, outbox, .put, "n", "two")

        // When
        let deleted = await Self.record(database, outbox, .delete, "n")

        // Then
        #expect(deleted == .cancelledOut)
        #expect(await Self.waiting(outbox).isEmpty)
    }

    @Test("update + delete is one delete")
    func updateThenDelete() async throws {
        // Given
        let (database, outbox) = try OutboxTests.notes()
        _ = await Self.record(database, outbox, .put, "n", "one")

        // When
        let deleted = await Self.record(database, outbox, .delete, "n")

        // Then
        #expect(deleted?.entry?.method == .delete)
        #expect(await Self.waiting(outbox) == ["DELETE notes/n -"])
    }

    @Test("changes of other resources never merge")
    func otherResourcesStayApart() async throws {
        // Given
        let (database, outbox) = try OutboxTests.notes()
        _ = await Self.record(database, outbox, .put, "a", "one")

        // When
        _ = await Self.record(database, outbox, .put, "b", "two")
        _ = await Self.record(database, outbox, .delete, "c")

        // Then
        #expect(await Self.waiting(outbox).count == 3)
    }

    /// How a change came to be one the API may hold already.
    enum MayHaveArrived: CaseIterable, Sendable {
        /// Recorded after an answer was lost (a create whose answer never came).
        case recorded
        /// Sent first by a sync, its answer lost.
        case sentFirst
        /// Sent second by a sync, after one that was answered (its mark goes with that answer).
        case sentSecond
    }

    @Test(
        "nothing merges into a change that may have arrived: recorded after a lost answer, or sent by a sync",
        arguments: MayHaveArrived.allCases)
    func neverIntoAChangeInFlight(how: MayHaveArrived) async throws {
        // Given: a create the API may hold already
        let (database, outbox) = try OutboxTests.notes()
        if how == .recorded {
            _ = await Self.record(database, outbox, .post, "n", "one", mayHaveArrived: true)
        } else {
            if how == .sentSecond { _ = await Self.record(database, outbox, .post, "m", "first") }
            _ = await Self.record(database, outbox, .post, "n", "one")
            // The sync sends it and the answer is lost: the connection is reset.
            let answers: [TestHTTPServer.Reply] =
                how == .sentSecond ? [.status(201, body: "{}"), .reset] : [.reset]
            let server = try TestHTTPServer(["/notes": .sequence(answers)])
            defer { server.stop() }
            _ = await PromiseExpectations.value(
                of: outbox.sync(with: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)) {
                    _, _, _ in nil
                })
            #expect(server.requests.count == answers.count)
        }

        // When
        let updated = await Self.record(database, outbox, .put, "n", "two")
        let deleted = await Self.record(database, outbox, .delete, "n")

        // Then: the create as it was sent, then the update and the delete, merged with each other
        if case .added = updated {} else { Issue.record("update: \(String(describing: updated))") }
        #expect(deleted?.entry?.method == .delete)
        #expect(await Self.waiting(outbox) == [#"POST notes {"text":"one"}"#, "DELETE notes/n -"])
    }

    @Test("nothing merges into a refused change: the later change waits behind it")
    func neverIntoAHeldChange() async throws {
        // Given: an update the API refused
        let (database, outbox) = try OutboxTests.notes()
        _ = await Self.record(database, outbox, .put, "n", "one")
        let server = try TestHTTPServer(["/notes/n": .status(409, body: #"{"error": "no"}"#)])
        defer { server.stop() }
        _ = await PromiseExpectations.value(
            of: outbox.sync(with: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)) { _, _, _ in
                nil
            })

        // When
        let updated = await Self.record(database, outbox, .put, "n", "two")

        // Then
        if case .added = updated {} else { Issue.record("update: \(String(describing: updated))") }
        #expect(
            await Self.waiting(outbox) == [#"PUT notes/n {"text":"one"}"#, #"PUT notes/n {"text":"two"}"#])
    }
}

extension OutboxEntry {
    fileprivate func replacingBody(_ text: String) -> OutboxEntry {
        OutboxEntry(
            sequence: sequence, localID: localID, method: method, path: path, body: Data(text.utf8),
            idempotencyKey: idempotencyKey, state: state, createdAt: createdAt, notBefore: notBefore,
            failures: failures)
    }
}
