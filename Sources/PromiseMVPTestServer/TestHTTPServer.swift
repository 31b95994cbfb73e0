import Dispatch
public import Foundation
import Promises

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real HTTP/1.1 server on 127.0.0.1 and a free port, started by a test itself, that answers each
/// path the way the test needs, well or badly: for testing a live service end to end without
/// anything started by hand.
///
/// ```swift
/// let server = try TestHTTPServer(["/melodies": .status(200, body: json)])
/// let api = APIClient(baseURL: server.baseURL)
/// ```
public final class TestHTTPServer: Sendable {
    /// Answers a request no fixed reply matches: the status and the body (JSON).
    public typealias Handler = @Sendable (Request) -> (status: Int, body: String)

    /// Answers a request no fixed reply matches with any ``Reply``, for a server that also
    /// misbehaves on purpose (resets a connection after doing the work, say).
    public typealias Responder = @Sendable (Request) -> Reply

    /// The port the server listens on, and listens on again after ``stop()`` and ``start()``.
    public let port: UInt16
    /// Whether a connection stays open for the client's next request (see ``init(_:port:keepsConnectionsOpen:responder:)``).
    public let keepsConnectionsOpen: Bool
    private let responder: Responder?
    let state = Mutable()
    /// Signalled each time a client closes a connection held with ``Reply/never``.
    let clientClosed = DispatchSemaphore(value: 0)

    /// The base URL to give an `APIClient`.
    public var baseURL: URL { Self.loopbackURL(port: port) }

    /// `http://127.0.0.1:port/`.
    static func loopbackURL(port: UInt16) -> URL {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = Int(port)
        components.path = "/"
        return components.url ?? URL(fileURLWithPath: "/")
    }

    /// Every request line received so far, such as `GET /melodies HTTP/1.1`.
    public var requests: [String] {
        state.lock.withLock { state.requests }
    }

    /// How many connections the server accepted so far: as many as ``requests`` unless it
    /// ``keepsConnectionsOpen``.
    public var connectionsAccepted: Int {
        state.lock.withLock { state.connectionsAccepted }
    }

    /// Starts a server that answers `replies` by path, then `handler` for any other path, and
    /// 404 without one.
    ///
    /// - Parameters:
    ///   - replies: What each path answers.
    ///   - port: The port to listen on; any free one by default (see ``port``).
    ///   - keepsConnectionsOpen: Whether a connection stays open for the client's next request
    ///   (see ``init(_:port:keepsConnectionsOpen:responder:)``); `false` by default.
    ///   - handler: Answers any other request, for a server with state (a small REST API).
    /// - Throws: `POSIXError` when no socket can be opened on 127.0.0.1, or the port is taken.
    public convenience init(
        _ replies: [String: Reply] = [:], port: UInt16 = 0, keepsConnectionsOpen: Bool = false,
        handler: Handler? = nil
    ) throws {
        var responder: Responder?
        if let handler {
            responder = { request in
                let (status, body) = handler(request)
                return Reply.status(status, body: body)
            }
        }
        try self.init(replies, port: port, keepsConnectionsOpen: keepsConnectionsOpen, responder: responder)
    }

    /// Starts a server that answers `replies` by path, then `responder` for any other path, and
    /// 404 without one.
    ///
    /// By default every answer closes its connection, so that each request reaches the server on
    /// a connection of its own. A server that `keepsConnectionsOpen` answers the next request on
    /// the same connection after a complete answer, as most servers do: for measuring a client,
    /// which then does not connect anew each time. It is off by default because a client sends a
    /// request again by itself when a connection it reused breaks without an answer: a
    /// ``Reply/reset`` or ``Reply/closeWithoutAnswer`` on a reused connection would not reach the
    /// test as a failure.
    ///
    /// - Parameters:
    ///   - replies: What each path answers.
    ///   - port: The port to listen on; any free one by default (see ``port``).
    ///   - keepsConnectionsOpen: Whether a connection stays open for the client's next request;
    ///     `false` by default.
    ///   - responder: Answers any other request with any reply.
    /// - Throws: `POSIXError` when no socket can be opened on 127.0.0.1, or the port is taken.
    public init(
        _ replies: [String: Reply] = [:], port: UInt16 = 0, keepsConnectionsOpen: Bool = false,
        responder: Responder?
    ) throws {
        let listener = try Listener(port: port)
        self.port = listener.port
        self.keepsConnectionsOpen = keepsConnectionsOpen
        self.responder = responder
        state.lock.withLock { state.replies = replies }
        listen(on: listener)
    }

    /// Listens again, on the same port, after ``stop()``: the server that was down is up again at
    /// the same address. Does nothing while the server listens.
    ///
    /// - Throws: `POSIXError` when another socket took the port meanwhile.
    public func start() throws {
        let running = state.lock.withLock { () -> Bool in
            guard state.listener == nil else { return true }
            state.held = nil  // its socket closes: the port may be listened on again
            return false
        }
        guard !running else { return }
        listen(on: try Listener(port: port))
    }

    private func listen(on listener: Listener) {
        let stopped = DispatchSemaphore(value: 0)
        state.lock.withLock {
            state.listener = listener
            state.stopped = stopped
        }
        let thread = Thread { [self] in acceptLoop(listener, stopped) }
        thread.start()
    }

    /// Waits until a client closed a connection the server was holding with ``Reply/never``, as a
    /// client does when its request is cancelled or times out.
    ///
    /// - Parameter seconds: How long to wait at most.
    /// - Returns: Whether a connection was closed in time; each closing is counted once.
    public func waitForClientToClose(seconds: Double) async -> Bool {
        let closed = clientClosed
        return await BlockingWork.run { closed.wait(timeout: .now() + seconds) == .success }
    }

    /// Changes what a path answers.
    ///
    /// - Parameters:
    ///   - path: The path, such as `/melodies`.
    ///   - reply: What it answers from now on.
    public func set(_ path: String, _ reply: Reply) {
        state.lock.withLock {
            state.replies[path] = reply
            state.answered[path] = nil
        }
    }

    /// Stops accepting connections: from now on, connecting is refused, as when a server is down,
    /// until ``start()``; the port stays held meanwhile, so no other server is given it.
    /// Connections kept open between requests are closed; a request being answered gets its
    /// answer, and then its connection is closed.
    public func stop() {
        let (listener, stopped) = state.lock.withLock { () -> (Listener?, DispatchSemaphore?) in
            defer {
                state.listener = nil
                state.stopped = nil
            }
            return (state.listener, state.stopped)
        }
        guard let listener, let stopped else { return }
        // The connections kept open for a next request are closed too: a client would otherwise
        // reach the stopped server through them. One answering a request closes after its answer.
        state.lock.withLock { state.closeIdleConnections() }
        // Only wake the accept loop here: the loop closes the socket when it sees the wake. Closing
        // it here would free its number while the loop may be about to call `accept` with it, and a
        // listener opened meanwhile (another test's server) would get it: the loop would then
        // answer that server's connections with this server's replies. Waiting for the loop to
        // close it frees the port for ``start()``.
        listener.wake()
        stopped.wait()
    }

    /// Where ``closedPort()`` draws from: up to, not including, the first port Linux hands out for
    /// "any free port" (32768; Apple platforms start at 49152).
    static let closedPorts: Range<UInt16> = 20_000..<32_768

    /// A port on 127.0.0.1 where nothing listens: bound, then released, for a server to be
    /// started on (`TestHTTPServer(port:)`).
    ///
    /// It is picked below the ports the system hands out for "any free port" (from 32768 on
    /// Linux, 49152 on Apple platforms), so that a server another test starts meanwhile on any
    /// free port is not given it. For the address of an API that is down, hold a ``ClosedPort``
    /// instead: this port is free again once returned, and a test that picks the same number can
    /// listen on it.
    ///
    /// - Returns: The port.
    /// - Throws: `POSIXError` when no socket can be opened.
    public static func closedPort() throws -> UInt16 {
        for _ in 0..<100 {
            guard let listener = try? Listener(port: UInt16.random(in: closedPorts)) else { continue }
            listener.close()
            return listener.port
        }
        let listener = try Listener(port: 0)
        listener.close()
        return listener.port
    }

    private func acceptLoop(_ listener: Listener, _ stopped: DispatchSemaphore) {
        while let connection = listener.acceptUnlessWoken() {
            // A thread per connection, not a dispatch queue: replies that wait (`never`,
            // `slowHeaders`, a responder that blocks) would hold the queue's few threads, and the
            // next connection would wait for the pool to grow.
            Thread { [self] in serve(connection) }.start()
        }
        listener.close()  // stopped: only now may its number be reused
        // The port is held again at once, by a socket that does not listen: connections are
        // refused, and a server another test starts on "any free port" is not given it. (Between
        // the two calls, microseconds, the port is free; before, it was free for the test's life.)
        let holder = try? ClosedPort(port: port)
        state.lock.withLock { state.held = holder }
        stopped.signal()
    }

    /// Answers the requests of one connection: one, or, when the server ``keepsConnectionsOpen``,
    /// as long as the client keeps it open, each reply leaves it usable and the server listens.
    private func serve(_ connection: Int32) {
        state.lock.withLock { state.connectionsAccepted += 1 }
        defer {
            state.lock.withLock { state.forget(connection) }
            close(connection)
        }
        while let request = readRequest(connection) {
            let reply =
                state.lock.withLock { state.nextReply(for: request.path) } ?? responder?(request)
                ?? .status(404, body: #"{"error":"not found"}"#)
            if let latency = state.lock.withLock({ state.latency }) {
                let jitter = latency.jitter > 0 ? Double.random(in: -latency.jitter...latency.jitter) : 0
                Thread.sleep(forTimeInterval: max(0, latency.roundTrip + jitter))
            }
            answer(
                connection, reply, to: request,
                keepingConnection: keepsConnectionsOpen && reply.keepsConnection)
            guard keepsConnectionsOpen && reply.keepsConnection,
                state.lock.withLock({ state.park(connection) })
            else { return }
        }
    }
}
