import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// Entries the user must deal with (refused, stuck, damaged) hold the later changes of their own
/// resource and nothing else; a wait the API asked for outlives the process; a created
/// resource's new identifier never takes over another's.
@Suite("Outbox: held entries")
struct OutboxHeldEntriesTests {
    let folder = TemporaryFolder("OutboxHeldEntriesTests")

    /// A `notes` feature in a real file, with its outbox on `clock` and the steady schedule.
    func notes(_ clock: TestClock) throws -> (Database, Outbox) {
        let database = try Database(
            at: folder.file("notes.sqlite"),
            migrations: [
                Migration(version: 1, sql: "CREATE TABLE notes (id TEXT PRIMARY KEY, text TEXT NOT NULL)")
            ])
        return (
            database,
            Outbox(database: database, feature: "notes", retry: OutboxTests.steadyRetry, now: { clock.now })
        )
    }

    func sync(_ outbox: Outbox, _ server: TestHTTPServer) async -> OutboxSyncReport? {
        await PromiseExpectations.value(
            of: outbox.sync(with: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)) {
                entry, answer, _ in
                entry.method == .post ? try APIClient.decode([String: String].self, from: answer)["id"] : nil
            })
    }

    @Test(
        "a change the API fails every time is tried five times, then stuck: the others go, the later changes of its resource wait"
    )
    func failingChangeGetsStuck() async throws {
        // Given: a's first change always answered 500; b, another note, fine
        let clock = TestClock()
        let (database, outbox) = try notes(clock)
        let server = try TestHTTPServer([
            "/notes/a": .status(500, body: "{}"), "/notes/b": .status(200, body: "{}"),
        ])
        defer { server.stop() }
        await OutboxTests.write(database, outbox, .put, id: "a")
        await OutboxTests.write(database, outbox, .put, id: "b")

        // When: syncing as the waits allow; a deleted after its change was first sent (so the
        // delete is a change of its own, not merged into one that may have arrived)
        var reports: [OutboxSyncReport] = []
        for round in 0..<5 {
            reports += [await sync(outbox, server)].compactMap { $0 }
            if round == 0 { await OutboxTests.write(database, outbox, .delete, id: "a") }
            clock.advance(300)
        }

        // Then: four syncs stop at a, the fifth makes it stuck and sends b; a's delete waits
        #expect(reports.count == 5)
        #expect(reports.prefix(4).allSatisfy { $0.stoppedBecause == .httpStatus(500) && $0.sent.isEmpty })
        #expect(reports[4].stuck.map(\.localID) == ["a"])
        #expect(reports[4].sent.map(\.localID) == ["b"])
        #expect(server.requests.filter { $0.hasPrefix("PUT /notes/a") }.count == 5)
        #expect(!server.requests.contains { $0.hasPrefix("DELETE") })
        let status = try #require(await PromiseExpectations.value(of: outbox.status()))
        #expect(status.stuck == 1 && status.waiting == 1 && status.states.count == 1)
        guard case .stuck(let lastError)? = status.states["a"] else {
            Issue.record("a is \(String(describing: status.states["a"]))")
            return
        }
        #expect(lastError.contains("500"))

        // When: the user retries it, and the API takes it
        server.set("/notes/a", .status(200, body: "{}"))
        #expect(await PromiseExpectations.value(of: outbox.retry(localID: "a")) == 1)
        let after = await sync(outbox, server)

        // Then: a's changes go, in order
        #expect(after?.sent.map(\.method) == [.put, .delete])
        #expect(await PromiseExpectations.value(of: outbox.status()) == .empty)
    }

    @Test("the waits between failures double from 1 s, and a sync within a wait asks nothing")
    func failuresWaitTheBackoff() async throws {
        // Given
        let clock = TestClock()
        let (database, outbox) = try notes(clock)
        let server = try TestHTTPServer(["/notes/a": .status(502, body: "{}")])
        defer { server.stop() }
        await OutboxTests.write(database, outbox, .put, id: "a")

        // When / Then: each wait is the ceiling of the steady schedule
        for wait in [1.0, 2, 4, 8] {
            let start = clock.now
            let failed = await sync(outbox, server)
            #expect(failed?.retryAt == start.addingTimeInterval(wait))
            clock.advance(wait - 0.5)
            let early = await sync(outbox, server)
            #expect(
                early?.retryAt == start.addingTimeInterval(wait) && early?.stoppedBecause == .httpStatus(502))
            clock.advance(0.5)
        }
        #expect(server.requests.count == 4)
    }

    @Test("a refused change holds the later changes of its note, not those of other notes")
    func refusalHoldsItsResourceOnly() async throws {
        // Given
        let clock = TestClock()
        let (database, outbox) = try notes(clock)
        let server = try TestHTTPServer([
            "/notes/a": .status(409, body: #"{"error": "edited elsewhere"}"#),
            "/notes/b": .status(200, body: "{}"),
        ])
        defer { server.stop() }
        await OutboxTests.write(database, outbox, .put, id: "a", text: "first")
        await OutboxTests.write(database, outbox, .put, id: "b")
        let first = await sync(outbox, server)
        // Not merged into the refused change: it waits behind it.
        await OutboxTests.write(database, outbox, .put, id: "a", text: "second")

        // When
        let report = await sync(outbox, server)

        // Then: one request for a, none for its second change; b went
        #expect(first?.refused.map(\.localID) == ["a"])
        #expect(first?.sent.map(\.localID) == ["b"])
        #expect(report?.sent.isEmpty == true)
        #expect(report?.waiting == 1)  // the change behind the refused one; the refused one is held
        #expect(server.requests == ["PUT /notes/a HTTP/1.1", "PUT /notes/b HTTP/1.1"])
        let status = await PromiseExpectations.value(of: outbox.status())
        #expect(status?.refused == 1 && status?.waiting == 1)
    }

    @Test(
        "a Retry-After too long to wait for is kept with the change: a later run, in a new process, asks nothing before it"
    )
    func retryAfterOutlivesTheRun() async throws {
        // Given
        let clock = TestClock()
        let server = try TestHTTPServer([
            "/notes/a": .status(429, body: "{}", headers: ["Retry-After": "3600"])
        ])
        defer { server.stop() }
        do {
            let (database, outbox) = try notes(clock)
            await OutboxTests.write(database, outbox, .put, id: "a")
            let first = await sync(outbox, server)
            #expect(first?.retryAt == clock.now.addingTimeInterval(3600))
        }

        // When: the file opened again, half an hour later, then past the hour
        clock.advance(1800)
        let (_, reopened) = try notes(clock)
        let early = await sync(reopened, server)
        clock.advance(1800)
        let late = await sync(reopened, server)

        // Then
        #expect(early?.stoppedBecause == .httpStatus(429))
        #expect(early?.sent.isEmpty == true && early?.waiting == 1)
        #expect(late?.stoppedBecause == .httpStatus(429))
        #expect(server.requests.count == 2)
        #expect(await PromiseExpectations.value(of: reopened.status())?.stuck == 0)
    }

    @Test("an entry that names no resource is damaged: never sent, and the others go")
    func entryForNoResource() async throws {
        // Given: a's entry with its resource's identifier emptied
        let (database, outbox) = try notes(TestClock())
        let server = try TestHTTPServer(["/notes/b": .status(200, body: "{}")])
        defer { server.stop() }
        await OutboxTests.write(database, outbox, .put, id: "a")
        await OutboxTests.write(database, outbox, .put, id: "b")
        _ = await PromiseExpectations.value(
            of: database.write { try $0.execute("UPDATE outbox SET local_id = '' WHERE local_id = 'a'") })

        // When
        let report = await sync(outbox, server)
        let status = await PromiseExpectations.value(of: outbox.status())

        // Then
        #expect(report?.sent.map(\.localID) == ["b"])
        #expect(server.requests == ["PUT /notes/b HTTP/1.1"])
        #expect(status?.damaged == 1)
    }

    @Test(
        "an entry whose row cannot be read is damaged: named with its file, never sent, others go, and it can be discarded",
        arguments: [
            ("UPDATE outbox SET method = 'FOO' WHERE local_id = 'a'", "FOO"),
            ("UPDATE outbox SET body = X'C3FFFE7B' WHERE local_id = 'a'", "body"),
            ("UPDATE outbox SET body = CAST('{\"text\": ' AS BLOB) WHERE local_id = 'a'", "body"),
        ])
    func damagedEntry(damage: String, named: String) async throws {
        // Given: a's entry damaged (a method no one knows, a body that is not JSON)
        let clock = TestClock()
        let (database, outbox) = try notes(clock)
        let server = try TestHTTPServer(["/notes/b": .status(200, body: "{}")])
        defer { server.stop() }
        await OutboxTests.write(database, outbox, .put, id: "a")
        await OutboxTests.write(database, outbox, .put, id: "b")
        _ = await PromiseExpectations.value(
            of: database.write { try $0.execute(damage) })

        // When
        let report = await sync(outbox, server)
        let status = try #require(await PromiseExpectations.value(of: outbox.status()))

        // Then
        #expect(report?.sent.map(\.localID) == ["b"])
        #expect(report?.waiting == 0)  // a damaged change is held, not waiting
        #expect(server.requests == ["PUT /notes/b HTTP/1.1"])
        #expect(status.damaged == 1 && status.waiting == 0)
        guard case .damaged(let reason)? = status.states["a"] else {
            Issue.record("a is \(String(describing: status.states["a"]))")
            return
        }
        #expect(reason.contains(folder.file("notes.sqlite").path))
        #expect(reason.contains("outbox entry 1") && reason.contains(named))

        // When: discarded
        let dropped = await PromiseExpectations.value(
            of: outbox.discard(localID: "a") { entries, _ in
                #expect(entries.isEmpty)  // a damaged change cannot be undone by the feature
            })

        // Then
        #expect(dropped?.count == 1)
        #expect(await PromiseExpectations.value(of: outbox.status()) == .empty)
    }

    @Test(
        "a created note given the identifier of another note with waiting changes is refused, and nothing is renamed or deleted"
    )
    func newIdentifierTakenHere() async throws {
        // Given: x created here, y changed here; the API calls x "y"
        let clock = TestClock()
        let (database, outbox) = try notes(clock)
        let server = try TestHTTPServer(["/notes": .status(201, body: #"{"id": "y"}"#)])
        defer { server.stop() }
        await OutboxTests.write(database, outbox, .post, id: "x", text: "mine")
        await OutboxTests.write(database, outbox, .put, id: "y", text: "other")
        // y's own change fails and waits: the test is about x. (Not an answer that never comes,
        // with a one-second timeout: on a loaded machine x's answer took longer than that.)
        server.set("/notes/y", .status(503, body: ""))

        // When
        let report = await PromiseExpectations.value(
            of: outbox.sync(with: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)) {
                entry, answer, connection in
                // As a feature does: the API's row replaces what stands under its identifier.
                let id = try APIClient.decode([String: String].self, from: answer)["id"]
                try connection.execute("DELETE FROM notes WHERE id = ?", [.text(id ?? "")])
                return id
            })

        // Then
        let reason = try #require(report?.refused.first.map(\.state))
        guard case .refused(let text) = reason else { return }
        #expect(text.contains("the identifier y"), "\(text)")
        let rows = await PromiseExpectations.value(
            of: database.read {
                try $0.query("SELECT id, text FROM notes ORDER BY id").map { try $0.string("text") }
            })
        #expect(rows == ["mine", "other"])
        let entries = await PromiseExpectations.value(of: outbox.entries())
        #expect(entries?.map(\.localID) == ["x", "y"])
    }
}
