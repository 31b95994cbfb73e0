import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `EventStream` against a loopback server that streams (`TestEventSource`): events as they are
/// sent, and every way back the standard asks for, timed by a test clock.
@Suite("Event stream")
struct EventStreamTests {
    /// A stream, its server, what it hands on, and its clock.
    struct Fixture {
        let source: TestEventSource
        let server: TestHTTPServer
        let clock: TestClock
        let stream: EventStream
        let events = DeliveryRecorder<ServerSentEvent>()
        let states = DeliveryRecorder<EventStream.State>()

        init(
            source: TestEventSource = TestEventSource(), jitter: Double = 0, maximumDelay: TimeInterval = 300,
            credentials: (any Credentials)? = nil,
            responder: (@Sendable (TestHTTPServer.Request) -> TestHTTPServer.Reply)? = nil,
            clock: TestClock = TestClock(), streamClock: (any SyncClock)? = nil
        ) throws {
            self.source = source
            self.clock = clock
            server = try TestHTTPServer(responder: responder ?? { _ in .eventStream(source) })
            var client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
            if let credentials { client = client.authorized(by: credentials) }
            stream = EventStream(
                client: client, clock: streamClock ?? clock, keepAlive: 15, maximumDelay: maximumDelay,
                jitter: { jitter })
        }

        func start() {
            let (events, states) = (events, states)
            stream.start({ events.record($0) }, state: { states.record($0) })
        }

        /// Starts the stream: whether it went live.
        func startLive() async -> Bool {
            start()
            return await states.next(where: { $0 == .live }) == .live
        }

        /// Stops the stream, then the server.
        func stop() {
            stream.stop()
            server.stop()
        }

        /// A delegate of connection `generation`, as the stream made it, on a session of its own
        /// with a task that never runs: what a connection delivers, delivered by the test.
        func delegate(of generation: Int) -> (EventStream.Delegate, URLSession, URLSessionDataTask) {
            let session = URLSession(configuration: .ephemeral)
            return (
                EventStream.Delegate(stream: stream, generation: generation, token: nil, lastEventID: ""),
                session,
                session.dataTask(with: server.baseURL)
            )
        }

        /// An answer's head for the stream's URL.
        func head(_ status: Int, _ contentType: String) throws -> HTTPURLResponse {
            try #require(
                HTTPURLResponse(
                    url: server.baseURL, statusCode: status, httpVersion: "HTTP/1.1",
                    headerFields: ["Content-Type": contentType]))
        }

        /// The next wait the stream announced.
        func nextWait() async -> TimeInterval? {
            await nextWaitAndReason()?.seconds
        }

        /// The next wait the stream announced, and why it waits.
        func nextWaitAndReason() async -> (seconds: TimeInterval, reason: String)? {
            guard
                case .waiting(let seconds, let reason)? = await states.next(where: {
                    if case .waiting = $0 { true } else { false }
                })
            else { return nil }
            return (seconds, reason)
        }
    }

    /// A session delegate that hears nothing: for a session only looked at.
    final class NoDelegate: NSObject, URLSessionDataDelegate {}

    /// A token that the API refuses until it is refreshed once.
    final class RefusedOnce: Credentials {
        let refreshes = Locked(0)
        var account: String? { "amy" }
        func accessToken() -> Promise<String> { .value(refreshes.withLock { $0 == 0 ? "old" : "new" }) }
        func refresh(replacing token: String) -> Promise<String> {
            refreshes.withLock { $0 += 1 }
            return .value("new")
        }
    }

    @Test(
        "events arrive as sent; back after a drop, the stream asks from the last id received and gets what it missed"
    )
    func reconnectsFromTheLastID() async throws {
        // Given: a live stream that received two events
        let fixture = try Fixture()
        defer {
            fixture.stream.stop()
            fixture.server.stop()
        }
        fixture.start()
        #expect(await fixture.states.next(where: { $0 == .live }) == .live)
        // Each waited for: two reads, not one
        fixture.source.send(id: "rev-1", event: "changes", data: #"{"orders": "rev-1"}"#)
        let earlier = await fixture.events.next()
        fixture.source.send(id: "rev-2", data: #"{"orders": "rev-2"}"#)
        let first = [earlier, await fixture.events.next()]

        // When: the server drops it, an event is sent meanwhile, and the wait the server asked passes
        fixture.source.dropConnections()
        let wait = await fixture.nextWait()
        fixture.source.send(id: "rev-3", data: #"{"orders": "rev-3"}"#)
        fixture.clock.advance(try #require(wait))
        let missed = await fixture.events.next()

        // Then
        #expect(first.map { $0?.lastEventID } == ["rev-1", "rev-2"])
        #expect(first.first??.type == "changes" && first.last??.type == "message")
        #expect(wait == 3)  // the standard's default: the server ended it, not a failure
        #expect(fixture.source.lastEventIDs == [nil, "rev-2"])
        #expect(missed == ServerSentEvent(lastEventID: "rev-3", data: #"{"orders": "rev-3"}"#))
        #expect(fixture.events.all.count == 3)
    }

    @Test("retry: sets the wait; failures double it, with jitter, up to the cap")
    func backoff() async throws {
        // Given: a stream whose server asks for 2 s, then fails every time
        let failing = Locked(false)
        let source = TestEventSource()
        let fixture = try Fixture(jitter: 0.5, maximumDelay: 10) { _ in
            failing.withLock { $0 } ? .status(500, body: "{}") : .eventStream(source)
        }
        defer {
            fixture.stream.stop()
            fixture.server.stop()
        }
        fixture.start()
        #expect(await source.waitForConnections(1))
        source.write("retry: 2000\n\n")
        source.send(data: "read")
        _ = await fixture.events.next()

        // When: dropped, then refused four times in a row
        failing.withLock { $0 = true }
        source.dropConnections()
        var waits: [TimeInterval] = []
        for _ in 0..<5 {
            guard let wait = await fixture.nextWait() else { break }
            waits.append(wait)
            fixture.clock.advance(wait)
        }

        // Then: 2 s asked by the server, then 2, 4, 8, 10 (capped), each three quarters with this jitter
        #expect(waits == [2, 1.5, 3, 6, 7.5])
    }

    @Test("404, 405 and 501 mean the API has no stream: one attempt, no other", arguments: [404, 405, 501])
    func noStream(status: Int) async throws {
        // Given
        let fixture = try Fixture(source: TestEventSource(status: status))
        defer {
            fixture.stream.stop()
            fixture.server.stop()
        }

        // When
        fixture.start()
        let state = await fixture.states.next(where: { if case .unsupported = $0 { true } else { false } })

        // Then
        #expect(state == .unsupported(status: status))
        #expect(fixture.clock.wakeUps.isEmpty)
        #expect(fixture.server.requests.count == 1)
    }

    @Test("a stream silent for twice its keep-alive is dropped and opened again")
    func silenceDropsTheStream() async throws {
        // Given: a live stream (keep-alive 15 s)
        let fixture = try Fixture()
        defer {
            fixture.stream.stop()
            fixture.server.stop()
        }
        fixture.start()
        #expect(await fixture.states.next(where: { $0 == .live }) == .live)

        // When: 30 s of silence, then the wait
        fixture.clock.advance(30)
        let wait = await fixture.nextWaitAndReason()
        let closed = await fixture.source.waitForConnections(atMost: 0)
        fixture.clock.advance(try #require(wait).seconds)

        // Then: dropped for its silence (not by a timeout of the session's), its connection closed
        #expect(wait?.reason == "nothing heard for 30 s")
        #expect(closed)
        #expect(await fixture.source.waitForConnections(2))
        #expect(await fixture.states.next(where: { $0 == .live }) == .live)
    }

    @Test("the session a stream opens on never ends it for silence: the keep-alive alone judges that")
    func sessionLeavesSilenceToTheKeepAlive() throws {
        // Given: a client whose session ends a request silent for 1 s
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 1
        let client = APIClient(
            baseURL: try #require(URL(string: "http://127.0.0.1:9")),
            session: URLSession(configuration: configuration))

        // When
        let session = client.transfers.session(delegate: NoDelegate(), idle: EventStream.idle)
        defer { session.invalidateAndCancel() }

        // Then: the stream's session waits a week; the client's own requests keep their second
        #expect(session.configuration.timeoutIntervalForRequest == EventStream.idle)
        #expect(EventStream.idle >= 86_400)
        #expect(configuration.timeoutIntervalForRequest == 1)
    }

    @Test("a 401 costs one refresh of the token and a new attempt with the new one")
    func refusedTokenIsRefreshed() async throws {
        // Given: an API that refuses the old token
        let credentials = RefusedOnce()
        let source = TestEventSource()
        let fixture = try Fixture(credentials: credentials) { request in
            request.headers["authorization"] == "Bearer new" ? .eventStream(source) : .status(401, body: "{}")
        }
        defer {
            fixture.stream.stop()
            fixture.server.stop()
        }

        // When
        fixture.start()

        // Then
        #expect(await fixture.states.next(where: { $0 == .live }) == .live)
        #expect(credentials.refreshes.withLock { $0 } == 1)
        #expect(fixture.server.requests.count == 2)
    }

    /// Input over a bound: one line too long, or an event's data too large in lines each short.
    enum Oversized: String, CaseIterable, Sendable {
        case line, event

        var text: String {
            switch self {
            case .line: String(repeating: "x", count: (64 << 10) + 1)
            case .event: String(repeating: "data: \(String(repeating: "y", count: 60_000))\n", count: 18)
            }
        }
    }

    @Test(
        "a line over 64 KiB, or an event over 1 MiB, ends the stream, and it comes back after a backoff",
        arguments: Oversized.allCases)
    func oversizedInputEndsTheStream(oversized: Oversized) async throws {
        // Given
        let fixture = try Fixture()
        defer {
            fixture.stream.stop()
            fixture.server.stop()
        }
        fixture.start()
        #expect(await fixture.source.waitForConnections(1))

        // When
        fixture.source.write(oversized.text)
        let wait = await fixture.nextWaitAndReason()

        // Then: a failure's wait (half of 3 s with no jitter), and no event handed on
        #expect(wait?.seconds == 1.5)
        #expect(wait?.reason.hasPrefix(oversized == .line ? "lineTooLong" : "eventTooLarge") == true)
        #expect(fixture.events.all.isEmpty)
        fixture.clock.advance(1.5)
        #expect(await fixture.source.waitForConnections(2))
    }
}
