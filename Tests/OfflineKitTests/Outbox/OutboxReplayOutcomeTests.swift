import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// What the outbox makes of answers that are not the API's: a captive portal's page, redirects,
/// and `Retry-After` values that ask for no wait at all (`OutboxReplay+Answers.swift`).
@Suite("Outbox: answers that are not the API's")
struct OutboxReplayOutcomeTests {
    /// A create, an update and a delete waiting in the outbox of `notes`.
    static func threeChanges(clock: TestClock = TestClock()) async throws -> (Database, Outbox) {
        let (database, outbox) = try OutboxTests.notes(clock: clock)
        await OutboxTests.write(database, outbox, .post, id: "new")
        await OutboxTests.write(database, outbox, .put, id: "edited")
        await OutboxTests.write(database, outbox, .delete, id: "gone")
        return (database, outbox)
    }

    /// Syncs with a client of `server` whose deliveries always succeed.
    static func sync(_ outbox: Outbox, _ server: TestHTTPServer) async -> OutboxSyncReport? {
        await PromiseExpectations.value(
            of: outbox.sync(with: APIClient(baseURL: server.baseURL, timeout: 30)) { _, _, _ in nil })
    }

    @Test(
        "a captive portal answering every request 200 with its sign-in page delivers nothing: every change waits, no failure counted",
        arguments: ["text/html", "text/plain; charset=utf-8"])
    func portalPageDeliversNothing(contentType: String) async throws {
        // Given
        let (_, outbox) = try await Self.threeChanges()
        let portal = try TestHTTPServer(responder: { _ in
            .status(200, body: "<!doctype html><title>Hotel Wi-Fi</title>", contentType: contentType)
        })
        defer { portal.stop() }

        // When
        let report = await Self.sync(outbox, portal)

        // Then
        #expect(report?.sent.isEmpty == true)
        #expect(report?.stoppedBecause == .notTheAPI)
        #expect(report?.waiting == 3)
        let entries = try #require(await PromiseExpectations.value(of: outbox.entries()))
        #expect(entries.map(\.localID) == ["new", "edited", "gone"])
        #expect(entries.map(\.failures) == [0, 0, 0])
        #expect(entries.allSatisfy { $0.notBefore == nil && !$0.isHeld })
    }

    @Test(
        "a write redirected to another origin is not followed: nothing reaches the other host, the change waits",
        arguments: [302, 307, 303])
    func writeRedirectedElsewhere(status: Int) async throws {
        // Given
        let (_, outbox) = try await Self.threeChanges()
        let elsewhere = try TestHTTPServer(responder: { _ in .status(200, body: #"{"id": "x"}"#) })
        defer { elsewhere.stop() }
        let api = try TestHTTPServer(responder: { request in
            .status(status, body: "", headers: ["Location": elsewhere.baseURL.absoluteString + "login"])
        })
        defer { api.stop() }

        // When
        let report = await Self.sync(outbox, api)

        // Then
        #expect(elsewhere.requests.isEmpty)
        #expect(report?.sent.isEmpty == true)
        #expect(report?.stoppedBecause == .notTheAPI)
        #expect(await PromiseExpectations.value(of: outbox.entries())?.map(\.failures) == [0, 0, 0])
    }

    @Test(
        "a write redirected within the API (it moved) is not followed either: the change waits and the report says where",
        arguments: [301, 308])
    func writeRedirectedWithinTheAPI(status: Int) async throws {
        // Given
        let (_, outbox) = try await Self.threeChanges()
        let api = try TestHTTPServer(responder: { request in
            request.path.hasPrefix("/v2/")
                ? .status(201, body: #"{"id": "n-1"}"#)
                : .status(status, body: "", headers: ["Location": "/v2" + request.path])
        })
        defer { api.stop() }

        // When
        let report = await Self.sync(outbox, api)

        // Then: one request, to the old address; nothing sent to the new one
        #expect(api.requests == ["POST /notes HTTP/1.1"])
        #expect(report?.stoppedBecause == .moved(to: "/v2/notes"))
        #expect(report?.stoppedBecause?.userMessage.contains("moved to /v2/notes") == true)
        #expect(report?.waiting == 3)
    }

    @Test(
        "a Retry-After of no time (0, negative, a date past) counts a failure and waits the backoff; the fifth makes the change stuck",
        arguments: ["0", "-5", "Wed, 21 Oct 2015 07:28:00 GMT"])
    func retryAfterOfNoTime(value: String) async throws {
        // Given
        let clock = TestClock()
        let (database, outbox) = try OutboxTests.notes(clock: clock)
        await OutboxTests.write(database, outbox, .put, id: "a")
        let api = try TestHTTPServer(responder: { _ in
            .status(503, body: "{}", headers: ["Retry-After": value])
        })
        defer { api.stop() }

        // When: synced at once, again without waiting, then as the waits allow
        let start = clock.now
        let first = await Self.sync(outbox, api)
        let tooSoon = await Self.sync(outbox, api)
        var reports: [OutboxSyncReport] = []
        for _ in 0..<4 {
            clock.advance(300)
            reports += [await Self.sync(outbox, api)].compactMap { $0 }
        }

        // Then: the first failure waits its backoff, the second sync sends nothing
        #expect(first?.retryAt == start.addingTimeInterval(1))  // the first backoff, not "now"
        #expect(tooSoon?.sent.isEmpty == true)
        #expect(api.requests.count == 5, "one request an attempt: the client does not resend at once")
        #expect(reports.last?.stuck.map(\.localID) == ["a"])
        let status = await PromiseExpectations.value(of: outbox.status())
        #expect(status?.stuck == 1)
    }
}

extension OutboxReplayOutcomeTests {
    @Test("retry sends a change that waits its backoff now, when the user asks")
    func retrySendsAWaitingChangeNow() async throws {
        // Given: a change that failed once and waits its backoff
        let clock = TestClock()
        let (database, outbox) = try OutboxTests.notes(clock: clock)
        await OutboxTests.write(database, outbox, .put, id: "a")
        let api = try TestHTTPServer([
            "/notes/a": .sequence([.status(500, body: "{}"), .status(200, body: "{}")])
        ])
        defer { api.stop() }
        let failed = await Self.sync(outbox, api)

        // When: retried, then synced without the clock moving
        let retried = await PromiseExpectations.value(of: outbox.retry(localID: "a"))
        let report = await Self.sync(outbox, api)

        // Then
        #expect(failed?.retryAt != nil)
        #expect(retried == 1)
        #expect(report?.sent.map(\.localID) == ["a"])
    }
}

extension OutboxReplayOutcomeTests {
    @Test(
        "a 412 whose copy is larger than a conflict keeps is a refusal that says why: nothing of it kept, the others go"
    )
    func oversizedConflictIsRefused() async throws {
        // Given: the API's copy of a is 2 MiB; b is accepted
        let (database, outbox) = try OutboxTests.notes()
        await OutboxTests.write(database, outbox, .put, id: "a")
        await OutboxTests.write(database, outbox, .put, id: "b")
        let huge = #"{"text": ""# + String(repeating: "x", count: 2 << 20) + #"", "version": "9"}"#
        let api = try TestHTTPServer([
            "/notes/a": .status(412, body: huge), "/notes/b": .status(200, body: "{}"),
        ])
        defer { api.stop() }

        // When
        let report = await Self.sync(outbox, api)

        // Then
        let refused = try #require(report?.refused.first)
        guard case .refused(let reason) = refused.state else {
            Issue.record("not refused: \(refused.state)")
            return
        }
        #expect(reason.contains("HTTP 412") && reason.contains("\(APIClient.maximumConflictBytes) bytes"))
        #expect(report?.sent.map(\.localID) == ["b"])
        let kept = await PromiseExpectations.value(
            of: database.read { try $0.scalar("SELECT length(theirs) FROM outbox WHERE local_id = 'a'") })
        #expect(kept == .null)
    }

    @Test("a 412 whose copy is within the bound is a conflict that keeps it")
    func boundedConflictKeepsTheirs() async throws {
        // Given
        let (database, outbox) = try OutboxTests.notes()
        await OutboxTests.write(database, outbox, .put, id: "a")
        let copy =
            #"{"text": ""# + String(repeating: "x", count: APIClient.maximumConflictBytes - 64) + #""}"#
        let api = try TestHTTPServer(["/notes/a": .status(412, body: copy)])
        defer { api.stop() }

        // When
        let report = await Self.sync(outbox, api)

        // Then
        guard case .conflicted(let theirs?, false)? = report?.conflicted.first?.state else {
            Issue.record("not a conflict: \(String(describing: report))")
            return
        }
        #expect(theirs.count == copy.utf8.count)
    }
}
