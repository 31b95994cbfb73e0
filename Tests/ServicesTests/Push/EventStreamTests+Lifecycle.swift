import Foundation
import PromiseMVPTestServer
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `EventStream`'s start and stop: what the first request carries, a second start, and a stop
/// that closes the connection and leaves nothing scheduled.
extension EventStreamTests {
    /// Credentials with no token to give: the user signed out.
    struct SignedOut: Credentials {
        var account: String? { nil }
        func accessToken() -> Promise<String> { Promise(error: ServiceRequestError.httpStatus(401)) }
        func refresh(replacing token: String) -> Promise<String> {
            Promise(error: ServiceRequestError.httpStatus(401))
        }
    }

    @Test("the first request asks for an event stream, uncached, from the last event ID the app kept")
    func firstRequestCarriesTheKeptID() async throws {
        // Given: the API's source, and the headers of each request
        let (source, headers) = (TestEventSource(), Locked<[[String: String]]>([]))
        let fixture = try Fixture(source: source) { request in
            headers.withLock { $0.append(request.headers) }
            return .eventStream(source)
        }
        defer { fixture.stop() }

        // When: started from where an earlier run left off
        let (events, states) = (fixture.events, fixture.states)
        fixture.stream.start(lastEventID: "rev-9", { events.record($0) }, state: { states.record($0) })
        #expect(await fixture.source.waitForConnections(1))

        // Then
        #expect(fixture.source.lastEventIDs == ["rev-9"])
        let request = try #require(headers.withLock { $0.first })
        #expect(request["accept"] == "text/event-stream")
        #expect(request["cache-control"] == "no-cache")
        #expect(fixture.stream.lastEventID == "rev-9")
    }

    @Test("a second start while the stream runs changes nothing: one connection, the first handlers")
    func secondStartIgnored() async throws {
        // Given: a live stream
        let fixture = try Fixture()
        defer { fixture.stop() }
        #expect(await fixture.startLive())

        // When: started again, with other handlers, then an event sent
        let others = DeliveryRecorder<ServerSentEvent>()
        fixture.stream.start({ others.record($0) })
        fixture.source.send(id: "rev-1", data: "{}")

        // Then: the first handler gets it, on the one connection
        #expect(await fixture.events.next()?.lastEventID == "rev-1")
        #expect(others.all.isEmpty)
        #expect(fixture.source.lastEventIDs.count == 1)
    }

    @Test("stop closes the connection, says stopped, and leaves nothing scheduled")
    func stopClosesAndCancels() async throws {
        // Given: a live stream (its silence watched)
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        #expect(await fixture.startLive())
        #expect(await fixture.source.waitForConnections(1))

        // When: stopped, twice
        fixture.stream.stop()
        fixture.stream.stop()

        // Then: told once
        #expect(await fixture.states.next(where: { $0 == .stopped }) == .stopped)
        #expect(await fixture.source.waitForConnections(atMost: 0))
        #expect(fixture.clock.wakeUps.isEmpty)
        #expect(fixture.states.all.filter { $0 == .stopped }.count == 1)
    }

    @Test("stop while waiting to connect again cancels the attempt: nothing is asked after")
    func stopCancelsTheWait() async throws {
        // Given: a stream the server dropped, waiting its retry time
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        fixture.start()
        #expect(await fixture.source.waitForConnections(1))
        fixture.source.dropConnections()
        let wait = try #require(await fixture.nextWait())

        // When
        fixture.stream.stop()
        let scheduled = fixture.clock.wakeUps
        fixture.clock.advance(wait * 10)

        // Then
        #expect(scheduled.isEmpty)
        #expect(fixture.server.requests.count == 1)
        #expect(fixture.stream.state == .stopped)
    }

    @Test("no token to give (signed out) is a failure with its reason, and the stream waits to try again")
    func noSignInWaits() async throws {
        // Given
        let fixture = try Fixture(credentials: SignedOut())
        defer { fixture.stop() }

        // When
        fixture.start()
        let wait = await fixture.nextWaitAndReason()

        // Then: no request made
        #expect(wait?.reason.hasPrefix("no sign-in") == true)
        #expect(fixture.server.requests.isEmpty)
    }

    @Test("a server that takes the request and never answers is dropped after twice the keep-alive")
    func unansweredRequestDropped() async throws {
        // Given: an API that holds the request without a word until the test ends
        let (arrived, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let fixture = try Fixture { _ in
            arrived.signal()
            _ = release.wait(timeout: .now() + 900)
            return .status(503, body: "")
        }
        defer {
            fixture.stream.stop()  // the request given up first, then the server let go
            release.signal()
            fixture.server.stop()
        }
        fixture.start()
        try #require(await BlockingWork.run { arrived.wait(timeout: .now() + 900) == .success })

        // When: 30 s pass with no answer's head
        fixture.clock.advance(30)

        // Then: dropped for its silence, as a silent live stream is
        #expect(await fixture.nextWaitAndReason()?.reason == "nothing heard for 30 s")
    }

    @Test("an API that refuses every token costs one refresh, then a failure's wait, not a refresh each time")
    func everyTokenRefused() async throws {
        // Given: an API that refuses whatever token a fresh one replaces
        let credentials = NewTokenEachTime()
        let fixture = try Fixture(credentials: credentials) { _ in .status(401, body: "{}") }
        defer { fixture.stop() }

        // When: refused, and refused again after the wait
        fixture.start()
        let wait = await fixture.nextWaitAndReason()
        fixture.clock.advance(try #require(wait).seconds)
        let second = await fixture.nextWaitAndReason()

        // Then: one refresh per attempt, each refused attempt waited out
        #expect(wait?.reason.contains("refused") == true)
        #expect(second.map { $0.seconds > wait?.seconds ?? 0 } == true)
        #expect(credentials.refreshes.withLock { $0 } == 2)
        #expect(fixture.server.requests.count == 4)
    }

    @Test("what a connection no longer current delivers changes nothing; the current one stays watched")
    func staleConnectionIgnored() async throws {
        // Given: connection 0 dropped by the server, connection 1 live
        let fixture = try Fixture()
        defer { fixture.stop() }
        #expect(await fixture.startLive())
        fixture.source.dropConnections()
        fixture.clock.advance(try #require(await fixture.nextWait()))
        #expect(await fixture.states.next(where: { $0 == .live }) == .live)
        let (stale, session, task) = fixture.delegate(of: 0)
        defer { session.invalidateAndCancel() }

        // When: connection 0's answer, an event and its end arrive late
        let head = try fixture.head(200, "text/event-stream")
        let disposition = Locked<URLSession.ResponseDisposition?>(nil)
        stale.urlSession(session, dataTask: task, didReceive: head) { answer in
            disposition.withLock { $0 = answer }
        }
        stale.urlSession(session, dataTask: task, didReceive: Data("id: late\ndata: {}\n\n".utf8))
        stale.urlSession(session, task: task, didCompleteWithError: nil)
        stale.urlSession(session, task: task, didCompleteWithError: URLError(.networkConnectionLost))

        // Then: refused, no event, no last event ID, one watchdog (the live connection's), which
        // drops it after 30 s of silence
        #expect(disposition.withLock { $0 } == .cancel)
        #expect(fixture.events.all.isEmpty && fixture.stream.lastEventID.isEmpty)
        #expect(fixture.stream.state == .live)
        #expect(fixture.clock.wakeUps.count == 1)
        fixture.clock.advance(30)
        let silence = await fixture.nextWaitAndReason()
        #expect(silence?.reason == "nothing heard for 30 s")
        #expect(silence?.seconds == 1.5)  // the first failure since the stream went live
    }

    @Test("an answer that is not a stream is not read: its body is refused", arguments: [200, 503])
    func answerNotAStreamRefused(status: Int) async throws {
        // Given: a live stream, and an answer for it that is not an event stream
        let fixture = try Fixture()
        defer { fixture.stop() }
        #expect(await fixture.startLive())
        let (current, session, task) = fixture.delegate(of: 0)
        defer { session.invalidateAndCancel() }
        let head = try fixture.head(status, "text/html")

        // When
        let disposition = Locked<URLSession.ResponseDisposition?>(nil)
        current.urlSession(session, dataTask: task, didReceive: head) { answer in
            disposition.withLock { $0 = answer }
        }

        // Then: refused, and the stream waits to try again
        #expect(disposition.withLock { $0 } == .cancel)
        #expect(await fixture.nextWait() != nil)
    }

    /// A token handed out once the test lets it go; its refresh always fails.
    final class HeldToken: Credentials {
        let (promise, seal) = Promise<String>.pending()
        var account: String? { "amy" }
        func accessToken() -> Promise<String> { promise }
        func refresh(replacing token: String) -> Promise<String> {
            Promise(error: ServiceRequestError.httpStatus(400))
        }
    }

    @Test("a stop while the token is being fetched: the token, once given, opens nothing")
    func stopWhileFetchingTheToken() async throws {
        // Given: a stream waiting for its token, then stopped
        let credentials = HeldToken()
        let fixture = try Fixture(credentials: credentials)
        defer { fixture.stop() }
        fixture.start()
        fixture.stream.stop()

        // When: the token comes, then the stream is started again (the token is given at once now)
        credentials.seal.fulfill("t0k3n")
        fixture.start()

        // Then: the second start's connection is the only one
        #expect(await fixture.states.next(where: { $0 == .live }) == .live)
        #expect(fixture.server.requests.count == 1)
    }

    @Test("a refresh that fails is a failure with its reason, and the stream waits to try again")
    func failedRefreshWaits() async throws {
        // Given: an API that refuses the token, and a refresh that fails
        let credentials = HeldToken()
        credentials.seal.fulfill("old")
        let fixture = try Fixture(credentials: credentials) { _ in .status(401, body: "{}") }
        defer { fixture.stop() }

        // When
        fixture.start()
        let wait = await fixture.nextWaitAndReason()

        // Then
        #expect(wait?.reason.hasPrefix("the sign-in was refused:") == true)
        #expect(wait?.seconds == 1.5)
    }

    @Test("a connection that ends with an error is a failure: its wait is a failure's, not the retry time")
    func connectionErrorIsAFailure() async throws {
        // Given: a live stream (connection 0)
        let fixture = try Fixture()
        defer { fixture.stop() }
        #expect(await fixture.startLive())
        let (current, session, task) = fixture.delegate(of: 0)
        defer { session.invalidateAndCancel() }

        // When: it ends with the connection lost
        current.urlSession(session, task: task, didCompleteWithError: URLError(.networkConnectionLost))

        // Then: half of 3 s with no jitter, the failure's reason
        let wait = await fixture.nextWaitAndReason()
        #expect(wait?.seconds == 1.5)
        #expect(wait?.reason.isEmpty == false)
    }

    @Test("what arrives restarts the silence: a stream heard 20 s in is not dropped 30 s after it opened")
    func arrivalsRestartTheSilence() async throws {
        // Given: a live stream, 20 s in
        let fixture = try Fixture()
        defer { fixture.stop() }
        #expect(await fixture.startLive())
        fixture.clock.advance(20)

        // When: an event arrives, then 20 s more pass
        fixture.source.send(id: "rev-1", data: "{}")
        _ = await fixture.events.next()
        fixture.clock.advance(20)

        // Then: still live (dropped only 30 s after the event)
        #expect(fixture.stream.state == .live)
        fixture.clock.advance(10)
        #expect(await fixture.nextWaitAndReason()?.reason == "nothing heard for 30 s")
    }
}
