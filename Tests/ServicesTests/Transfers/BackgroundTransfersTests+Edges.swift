import Dispatch
import Foundation
import PromiseMVPTestServer
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// The edges of `BackgroundTransfers`: bodies at the limit, redirects, a second `resume()` while a
/// request is under way (a relaunch's reconciliation), the system's events handler, and the token.
extension BackgroundTransfersTests {
    /// A client of `server` with one request spooled, and the transfers of the test's spool.
    func one(_ server: TestHTTPServer, limit: Int = 16 << 20) async throws -> (String, BackgroundTransfers) {
        let client = APIClient(baseURL: server.baseURL, timeout: 30)
        let name = try await spooled(client, .put, "notes/n1", "{}", key: "k")
        return (
            name, BackgroundTransfers(spool: spool, identifier: "tests.\(UUID())", maximumAnswerBytes: limit)
        )
    }

    @Test("an answer of exactly the limit, in many pieces, is kept whole and not cut")
    func answerAtTheLimitKeptWhole() async throws {
        // Given: 300,000 bytes of answer (many reads), a limit of exactly that
        let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let server = try TestHTTPServer(["/notes/n1": .bytes(200, body: body)], responder: nil)
        defer { server.stop() }
        let (name, transfers) = try await one(server, limit: body.count)
        defer { transfers.finish() }
        // When
        _ = await PromiseExpectations.value(of: transfers.resume())
        // Then
        guard case .answered(let answer) = spool.state(of: name) else {
            Issue.record("no answer kept")
            return
        }
        #expect(!answer.truncated && answer.body == body)
    }

    @Test("a redirect is the answer, not followed, read as the client reads one")
    func redirectNotFollowed() async throws {
        // Given
        let server = try TestHTTPServer(["/notes/n1": .redirect(to: "/elsewhere")], responder: nil)
        defer { server.stop() }
        let (name, transfers) = try await one(server)
        defer { transfers.finish() }
        // When
        _ = await PromiseExpectations.value(of: transfers.resume())
        // Then
        guard case .answered(let answer) = spool.state(of: name) else {
            Issue.record("no answer kept")
            return
        }
        #expect(answer.status == 302 && !server.requests.contains { $0.contains("/elsewhere") })
        guard
            case .failure(APIError.redirected(status: 302, _)) = client(server).reading(
                answer, at: server.baseURL)
        else {
            Issue.record("a 302 was not read as a redirect")
            return
        }
    }

    @Test("a second resume while a request is under way does not send it again, and both are told")
    func secondResumeKeepsTheTaskUnderWay() async throws {
        // Given: the API holds its answer until the test lets it go
        let (arrived, answer) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let server = try TestHTTPServer { _ in
            arrived.signal()
            _ = answer.wait(timeout: .now() + 900)
            return .status(200, body: "{}")
        }
        defer { server.stop() }
        let (name, _) = try await one(server)
        let transfers = holding(name)
        defer { transfers.finish() }
        let first = transfers.resume()
        try #require(await BlockingWork.run { arrived.wait(timeout: .now() + 900) == .success })
        // When: resumed again (as at a relaunch), then the answer comes
        let second = transfers.resume()
        answer.signal()
        // Then: one request; both promises are fulfilled (the second with the answer when it
        // looked before it came, with none after)
        #expect(await PromiseExpectations.value(of: first) == 1)
        let secondAnswered = try #require(await PromiseExpectations.value(of: second))
        #expect((0...1).contains(secondAnswered))
        #expect(server.requests.count == 1)
    }

    @Test("the system's events handler is kept for its own session and called once its events are in")
    func eventsHandler() async throws {
        // Given
        let transfers = BackgroundTransfers(spool: spool, identifier: "tests.events")
        defer { transfers.finish() }
        let called = Locked(0)
        // When
        let others = transfers.handleEvents(forBackgroundURLSession: "tests.other") {
            called.withLock { $0 += 100 }
        }
        let mine = transfers.handleEvents(forBackgroundURLSession: "tests.events") {
            called.withLock { $0 += 1 }
        }
        let before = called.withLock { $0 }
        transfers.eventsDelivered()
        transfers.eventsDelivered()
        // Then
        #expect(!others && mine && before == 0)
        #expect(called.withLock { $0 } == 1)
    }

    @Test("a request made for a signed-in user carries its token; one without a sign-in carries none")
    func tokenOfTheSignedIn() async throws {
        // Given
        struct Signed: Credentials {
            var account: String? { "amy" }
            func accessToken() -> Promise<String> { .value("t0k3n") }
            func refresh(replacing token: String) -> Promise<String> { .value("t0k3n") }
        }
        let plain = APIClient(baseURL: URL(string: "http://127.0.0.1:9/")!)
        // When
        let signed = await PromiseExpectations.value(
            of: plain.authorized(by: Signed()).spooled(.post, "notes", body: Data("{}".utf8), headers: [:]))
        let unsigned = await PromiseExpectations.value(
            of: plain.spooled(.delete, "notes/1", body: nil, headers: [:]))
        // Then
        #expect(signed?.headers["Authorization"] == "Bearer t0k3n")
        #expect(signed?.headers["Content-Type"] == "application/json")
        #expect(unsigned?.headers["Authorization"] == nil && unsigned?.headers["Content-Type"] == nil)
        #expect(unsigned?.url.absoluteString == "http://127.0.0.1:9/notes/1")
    }

    /// Transfers of the test's spool that wait as long as a test holds an answer (the session's
    /// 60 s would time out the held request while a loaded machine runs the test's next step).
    func holding(_ name: String) -> BackgroundTransfers {
        BackgroundTransfers(
            spool: spool, identifier: "tests.\(name)", maximumAnswerBytes: 16 << 20, idleTimeout: 900)
    }

    func client(_ server: TestHTTPServer) -> APIClient {
        APIClient(baseURL: server.baseURL, timeout: 30)
    }
}

extension BackgroundTransfersTests {
    @Test("each resume counts the answers of its own requests only")
    func eachResumeCountsItsOwn() async throws {
        // Given: the API holds the answer to the first request until the test lets it go
        let (arrived, answer) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let freeArrived = DispatchSemaphore(value: 0)
        let server = try TestHTTPServer { request in
            if request.path == "/notes/held" {
                arrived.signal()
                _ = answer.wait(timeout: .now() + 900)
            } else {
                freeArrived.signal()
            }
            return .status(200, body: "{}")
        }
        defer { server.stop() }
        let client = client(server)
        let held = try await spooled(client, .put, "notes/held", "{}", key: "k1")
        let transfers = holding(held)
        defer { transfers.finish() }
        let first = transfers.resume()
        try #require(await BlockingWork.run { arrived.wait(timeout: .now() + 900) == .success })
        // When: a second request spooled and resumed (its request sent: it took both), then the
        // first answered
        _ = try await spooled(client, .put, "notes/free", "{}", key: "k2")
        let second = transfers.resume()
        try #require(await BlockingWork.run { freeArrived.wait(timeout: .now() + 900) == .success })
        answer.signal()
        // Then: the first resume counts its one answer, the second its two (it waited for both)
        #expect(await PromiseExpectations.value(of: first) == 1)
        #expect(await PromiseExpectations.value(of: second) == 2)
    }

    @Test("a 412 whose copy was cut at the limit reads as a conflict too large to keep")
    func cutConflictTooLarge() throws {
        // Given
        let client = APIClient(baseURL: URL(fileURLWithPath: "/"))
        let cut = SpooledAnswer(status: 412, headers: [:], body: Data(count: 10), truncated: true)
        // When
        let read = client.reading(cut, at: URL(fileURLWithPath: "/notes/1"))
        // Then
        guard case .failure(let error) = read else {
            Issue.record("a cut 412 read as an answer")
            return
        }
        #expect((error as? APIClient.ConflictTooLarge)?.bytes == 10)
    }
}

extension BackgroundTransfersTests {
    @Test("a request that cannot be read is not sent, and resume still settles")
    func damagedRequestSkipped() async throws {
        // Given: a request whose file is not a request
        let name = try spool.write(SpooledRequest(method: "PUT", url: folder.url, headers: [:]), body: nil)
        try Data("garbage".utf8).write(to: spool.url(name, "request"))
        let transfers = BackgroundTransfers(spool: spool, identifier: "tests.\(UUID())")
        defer { transfers.finish() }
        // When
        let answered = await PromiseExpectations.value(of: transfers.resume())
        // Then
        #expect(answered == 0)
        #expect(spool.state(of: name) == .waiting)
    }

    @Test("a request a task of the system sends (kept across a relaunch) is awaited, never started again")
    func systemTasksNotStartedTwice() {
        // Given: two waiting requests, the system's session sending the first
        let delegate = BackgroundTransfers.Delegate(spool: spool, limit: 1 << 20)
        let (first, firstSeal) = Promise<Int>.pending()
        let (second, secondSeal) = Promise<Int>.pending()

        // When: a resume finds them, then another resume while both are under way
        let started = delegate.take(waiting: ["a", "b"], running: ["a"], for: firstSeal)
        let startedAgain = delegate.take(waiting: ["a", "b"], running: [], for: secondSeal)

        // Then: only the second was started, once; both resumes wait for both answers
        #expect(started == ["b"])
        #expect(startedAgain.isEmpty)
        #expect(first.isPending && second.isPending)
    }

    @Test("an answer that goes on past the limit is cut there at once, not read to its end")
    func endlessAnswerCut() async throws {
        // Given: an API whose answer never ends (its connection held open), a limit of 1,000 bytes
        let source = TestEventSource()
        let server = try TestHTTPServer { _ in .eventStream(source) }
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, timeout: 30)
        let name = try await spooled(client, .put, "notes/n1", "{}", key: "k")
        // (the session waits for more of the answer as long as a hang takes)
        let transfers = BackgroundTransfers(
            spool: spool, identifier: "tests.\(UUID())", maximumAnswerBytes: 1_000, idleTimeout: 900)
        defer { transfers.finish() }

        // When: 5,000 bytes come, and the answer goes on
        let resumed = transfers.resume()
        #expect(await source.waitForConnections(1))
        source.write(String(repeating: "x", count: 5_000))

        // Then: answered with the first 1,000 bytes, the connection given up
        #expect(await PromiseExpectations.value(of: resumed, timeout: 900) == 1)
        guard case .answered(let answer) = spool.state(of: name) else {
            Issue.record("no answer kept")
            return
        }
        #expect(answer.truncated && answer.body.count == 1_000 && answer.status == 200)
        #expect(await source.waitForConnections(atMost: 0))
    }

    @Test("an answer that cannot be written leaves the request waiting, and the next resume sends it again")
    func unwrittenAnswerSentAgain() async throws {
        // Given: a request whose answer's temporary file cannot be made (a folder is in its place)
        let server = try TestHTTPServer(["/notes/n1": .status(200, body: "{}")], responder: nil)
        defer { server.stop() }
        let (name, transfers) = try await one(server)
        defer { transfers.finish() }
        let blocker = spool.url(name, "answer").path + ".new-\(getpid())"
        try FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: true)

        // When: resumed, then resumed again once the answer can be written
        let first = await PromiseExpectations.value(of: transfers.resume())
        let waiting = spool.state(of: name)
        try FileManager.default.removeItem(atPath: blocker)
        let second = await PromiseExpectations.value(of: transfers.resume(), timeout: 900)

        // Then: sent twice, answered the second time
        #expect(first == 0 && waiting == .waiting)
        #expect(second == 1 && server.requests.count == 2)
        guard case .answered(let answer) = spool.state(of: name) else {
            Issue.record("no answer kept")
            return
        }
        #expect(answer.status == 200)
    }

    @Test("a test that holds an answer open gives the session a longer wait; an app's keeps the system's")
    func idleTimeoutGiven() {
        // Given / When
        let held = BackgroundTransfers(
            spool: spool, identifier: "tests.\(UUID())", maximumAnswerBytes: 1_000, idleTimeout: 900)
        let usual = BackgroundTransfers(spool: spool, identifier: "tests.\(UUID())")
        defer {
            held.finish()
            usual.finish()
        }

        // Then
        #expect(held.idleTimeout == 900)
        #expect(usual.idleTimeout == 60)
    }
}
