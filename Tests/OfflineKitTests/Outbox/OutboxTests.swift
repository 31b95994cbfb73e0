import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// The outbox on its own: a `notes` feature with one table, a real SQLite database, and the
/// loopback server as its API.
@Suite("Outbox")
struct OutboxTests {
    /// A feature's table and its outbox in one database.
    static func notes(clock: TestClock = TestClock()) throws -> (Database, Outbox) {
        let database = try Database.inMemory(migrations: [
            Migration(version: 1, sql: "CREATE TABLE notes (id TEXT PRIMARY KEY, text TEXT NOT NULL)")
        ])
        // Other syncs' claims are watched on the same clock the test moves.
        let outbox = Outbox(
            database: database, feature: "notes", retry: steadyRetry, now: { clock.now },
            claimWatch: ClaimWatch(elapsed: { clock.now.timeIntervalSince1970 }))
        return (database, outbox)
    }

    /// The standard schedule with no randomness: each wait is its whole ceiling (1 s, 2 s, 4 s,
    /// 8 s), so a test knows when an entry may go again.
    static var steadyRetry: RetryPolicy {
        var retry = Outbox.standardRetry
        retry.jitter = { $0 }
        return retry
    }

    /// Writes a note and records its change, in one transaction.
    static func write(
        _ database: Database, _ outbox: Outbox, _ method: HTTPMethod, id: String, text: String = "hello",
        mayHaveArrived: Bool = false
    ) async {
        _ = await PromiseExpectations.value(
            of: outbox.ready.then(on: .inline) {
                database.write { connection in
                    try connection.execute(
                        "INSERT OR REPLACE INTO notes (id, text) VALUES (?, ?)", [.text(id), .text(text)])
                    try outbox.record(
                        method, method == .post ? "notes" : "notes/\(id)", json: ["text": text], localID: id,
                        mayHaveArrived: mayHaveArrived, in: connection)
                }
            })
    }

    @Test(
        "each entry is sent in order with its Idempotency-Key; a create's id replaces the local one after it")
    func sendsInOrderWithKeys() async throws {
        // Given
        let (database, outbox) = try Self.notes()
        let keys = Received()
        let server = try TestHTTPServer(responder: { request in
            keys.append("\(request.method) \(request.path) \(request.headers["idempotency-key"] ?? "-")")
            return request.method == "POST" ? .status(201, body: #"{"id": "n-9"}"#) : .status(200, body: "{}")
        })
        defer { server.stop() }
        await Self.write(database, outbox, .post, id: "local-1")
        // Sent once already (its answer lost): kept apart, not merged into the create.
        await Self.write(database, outbox, .put, id: "local-1", text: "changed", mayHaveArrived: true)
        let entries = try #require(await PromiseExpectations.value(of: outbox.entries()))

        // When
        let report = await PromiseExpectations.value(
            of: outbox.sync(with: APIClient(baseURL: server.baseURL, timeout: 30)) { entry, answer, _ in
                entry.method == .post ? try APIClient.decode([String: String].self, from: answer)["id"] : nil
            })

        // Then
        #expect(
            keys.lines == [
                "POST /notes \(entries[0].idempotencyKey)", "PUT /notes/n-9 \(entries[1].idempotencyKey)",
            ])
        #expect(report?.sent.count == 2)
        #expect(report?.newIDs == ["local-1": "n-9"])
        #expect(await PromiseExpectations.value(of: outbox.entries())?.isEmpty == true)
    }

    @Test(
        "a 5xx stops the sync and keeps that entry and the rest; no sync asks again before the wait; the next one after it starts from it"
    )
    func serverErrorStops() async throws {
        // Given
        let clock = TestClock()
        let (database, outbox) = try Self.notes(clock: clock)
        let server = try TestHTTPServer([
            "/notes/a": .sequence([.status(503, body: "{}"), .status(200, body: "{}")])
        ])
        defer { server.stop() }
        server.set("/notes/b", .status(200, body: "{}"))
        await Self.write(database, outbox, .put, id: "a")
        await Self.write(database, outbox, .put, id: "b")
        let client = APIClient(baseURL: server.baseURL, timeout: 30)

        // When
        let first = await PromiseExpectations.value(of: outbox.sync(with: client) { _, _, _ in nil })
        let tooSoon = await PromiseExpectations.value(of: outbox.sync(with: client) { _, _, _ in nil })
        clock.advance(1)  // the first wait is at most 1 s
        let second = await PromiseExpectations.value(of: outbox.sync(with: client) { _, _, _ in nil })

        // Then
        #expect(first?.stoppedBecause == .httpStatus(503))
        #expect(first?.sent.isEmpty == true)
        #expect(first?.waiting == 2)
        let retryAt = try #require(first?.retryAt)
        #expect(retryAt >= clock.now.addingTimeInterval(-1) && retryAt <= clock.now)
        #expect(tooSoon?.stoppedBecause == .httpStatus(503))
        #expect(tooSoon?.sent.isEmpty == true)
        #expect(second?.sent.map(\.localID) == ["a", "b"])
        #expect(
            server.requests == ["PUT /notes/a HTTP/1.1", "PUT /notes/a HTTP/1.1", "PUT /notes/b HTTP/1.1"])
    }

    @Test("a DELETE answered 404 is done: the resource is gone, as asked")
    func deleteOf404IsDone() async throws {
        // Given
        let (database, outbox) = try Self.notes()
        let server = try TestHTTPServer(["/notes/gone": .status(404, body: "{}")])
        defer { server.stop() }
        await Self.write(database, outbox, .delete, id: "gone")

        // When
        let report = await PromiseExpectations.value(
            of: outbox.sync(with: APIClient(baseURL: server.baseURL, timeout: 30)) { _, _, _ in nil })

        // Then
        #expect(report?.sent.map(\.method) == [.delete])
        #expect(report?.refused.isEmpty == true)
        #expect(await PromiseExpectations.value(of: outbox.status()) == .empty)
    }

    @Test("a 404 to a PUT and a 429 are not the same: the first is refused, the second waits")
    func statusesThatMeanLater() async throws {
        // Given
        let (database, outbox) = try Self.notes()
        let server = try TestHTTPServer([
            "/notes/a": .status(404, body: #"{"message": "no such note"}"#),
            "/notes/b": .status(429, body: "{}"),
        ])
        defer { server.stop() }
        await Self.write(database, outbox, .put, id: "a")
        await Self.write(database, outbox, .put, id: "b")

        // When
        let report = await PromiseExpectations.value(
            of: outbox.sync(with: APIClient(baseURL: server.baseURL, timeout: 30)) { _, _, _ in nil })

        // Then
        #expect(report?.refused.map(\.state) == [.refused(reason: "HTTP 404: no such note")])
        #expect(report?.stoppedBecause == .httpStatus(429))
        let status = await PromiseExpectations.value(of: outbox.status())
        #expect(status?.states == ["a": .refused(reason: "HTTP 404: no such note"), "b": .pending])
    }

    @Test("a sync asked for while one runs gets that one: each entry is sent once")
    func concurrentSyncsShareOneRun() async throws {
        // Given
        let (database, outbox) = try Self.notes()
        let server = try TestHTTPServer(responder: { _ in
            .slowHeaders(seconds: 0.05, then: .status(200, body: "{}"))
        })
        defer { server.stop() }
        for index in 0..<3 { await Self.write(database, outbox, .put, id: "n\(index)") }
        let client = APIClient(baseURL: server.baseURL, timeout: 30)

        // When
        let first = outbox.sync(with: client) { _, _, _ in nil }
        let second = outbox.sync(with: client) { _, _, _ in nil }
        let reports = [
            await PromiseExpectations.value(of: first), await PromiseExpectations.value(of: second),
        ]

        // Then
        #expect(server.requests.count == 3)
        #expect(reports.map { $0?.sent.count } == [3, 3])
    }

    @Test("the refusal's reason is what the API said, in any of the usual shapes")
    func refusalReasons() {
        #expect(OutboxReplay.refusalReason(status: 409, body: #"{"error": "taken"}"#) == "HTTP 409: taken")
        #expect(
            OutboxReplay.refusalReason(status: 422, body: #"{"errors": [{"message": "Bad zip."}]}"#)
                == "HTTP 422: Bad zip.")
        #expect(OutboxReplay.refusalReason(status: 400, body: "") == "HTTP 400")
        #expect(OutboxReplay.refusalReason(status: 410, body: "gone for good") == "HTTP 410: gone for good")
    }

    @Test("an entry written in a transaction that fails is not kept, nor is the change")
    func recordedWithTheChangeOrNotAtAll() async throws {
        // Given
        let (database, outbox) = try Self.notes()
        struct Crash: Error {}

        // When
        _ = await PromiseExpectations.error(
            of: outbox.ready.then(on: .inline) {
                database.write { connection in
                    try connection.execute("INSERT INTO notes (id, text) VALUES ('x', 'lost')")
                    try outbox.record(.post, "notes", body: nil, localID: "x", in: connection)
                    throw Crash()
                }
            })

        // Then
        #expect(await PromiseExpectations.value(of: outbox.entries())?.isEmpty == true)
        #expect(
            await PromiseExpectations.value(of: database.read { try $0.query("SELECT * FROM notes") })?
                .isEmpty == true)
    }
}

/// What a server received, line by line.
final class Received: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `received` is only touched while holding `lock`.
    private let lock = NSLock()
    private var received: [String] = []

    var lines: [String] { lock.withLock { received } }

    func append(_ line: String) {
        lock.withLock { received.append(line) }
    }
}
