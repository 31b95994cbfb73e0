public import Foundation
import Promises

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension TestHTTPServer {
    /// What the server does for one path.
    ///
    /// More cases may be added in a later version: a `switch` over it needs a `default`.
    public enum Reply: Sendable {
        /// A complete answer with this status, body, content type and extra headers.
        case status(
            Int, body: String, contentType: String = "application/json", headers: [String: String] = [:])
        /// Reads the request and never answers, until the client gives up.
        case never
        /// Announces a longer body than it sends, then closes the connection.
        case closeMidBody
        /// Waits `seconds` before answering at all, then answers `reply`.
        indirect case slowHeaders(seconds: Double, then: Reply)
        /// Resets the connection (TCP RST) instead of answering.
        case reset
        /// Reads the request and closes the connection without a byte of answer ("empty reply"):
        /// a server that did the work and crashed before answering, say.
        case closeWithoutAnswer
        /// Redirects to `location` with a 302.
        case redirect(to: String)
        /// A 200 whose body is `bytes` JSON spaces, written as the client reads them, never held
        /// whole: with a `Content-Length` when `announced`, else delimited by closing the
        /// connection. For testing what a client does with a body larger than it accepts.
        case largeBody(bytes: Int, announced: Bool)
        /// Answers the first request with the first reply, the second with the second, and so on;
        /// the last one answers every request after that.
        case sequence([Reply])
        /// A Server-Sent Events stream that stays open: what `source` sends, as it sends it.
        case eventStream(TestEventSource)
        /// A complete answer whose body is `body` as it is, any bytes (a file, a piece of one).
        case bytes(
            Int, body: Data, contentType: String = "application/octet-stream", headers: [String: String] = [:]
        )
    }

    /// A request as the server received it.
    public struct Request: Sendable {
        /// The method, such as `GET`.
        public let method: String
        /// The path, such as `/orders/abc123`.
        public let path: String
        /// The body, empty when there is none.
        public let body: Data
        /// The header fields, names in lower case (`idempotency-key`).
        public let headers: [String: String]

        /// Makes a request, for a responder that hands one on changed (a nested route answered by
        /// the collection's ``TestResourceAPI``, say).
        ///
        /// - Parameters:
        ///   - method: The method.
        ///   - path: The path.
        ///   - body: The body.
        ///   - headers: The header fields, names in lower case.
        public init(method: String, path: String, body: Data = Data(), headers: [String: String] = [:]) {
            self.method = method
            self.path = path
            self.body = body
            self.headers = headers
        }
    }
}

extension TestHTTPServer.Reply {
    /// Whether the connection stays open for the client's next request after this reply: after a
    /// complete answer it does (HTTP/1.1 keeps connections open unless told otherwise); after one
    /// that breaks off, is delimited by closing, or never comes, it is closed.
    var keepsConnection: Bool {
        switch self {
        case .status, .redirect, .bytes: true
        case .slowHeaders(_, let then): then.keepsConnection
        case .sequence(let replies): replies.first?.keepsConnection ?? false
        case .never, .closeMidBody, .reset, .closeWithoutAnswer, .largeBody, .eventStream: false
        }
    }
}

/// The server's changing state, guarded by its lock.
final class Mutable: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `replies` and `requests` are only read or written inside
    // `lock.withLock`, and `lock` is itself thread-safe.
    let lock = Locked()
    var replies: [String: TestHTTPServer.Reply] = [:]
    var requests: [String] = []
    /// The listening socket and its wake pipe, `nil` while stopped.
    var listener: TestHTTPServer.Listener?
    /// Signalled by the accept loop once it closed `listener`.
    var stopped: DispatchSemaphore?
    /// The port held while stopped, so that it stays refused (and no other server is given it)
    /// until ``TestHTTPServer/start()`` or the server goes away.
    var held: ClosedPort?
    /// How many requests each path with a `.sequence` reply has answered.
    var answered: [String: Int] = [:]
    /// The connections waiting for their client's next request, closed when the server stops.
    var idle: Set<Int32> = []
    /// How many connections were accepted.
    var connectionsAccepted = 0
    /// The delay before every answer, `nil` for none.
    var latency: TestHTTPServer.Latency?

    /// Keeps `connection` open for a next request while the server listens.
    ///
    /// - Returns: Whether it stays open; `false` once the server stopped.
    func park(_ connection: Int32) -> Bool {
        guard listener != nil else { return false }
        idle.insert(connection)
        return true
    }

    /// Forgets `connection`, just before it is closed: its number may be reused from then on.
    func forget(_ connection: Int32) {
        idle.remove(connection)
    }

    /// Shuts the idle connections down, which wakes their threads: each then closes its own.
    /// Called with the lock held, so none of them is closed (and its number reused) meanwhile.
    func closeIdleConnections() {
        for connection in idle { shutdown(connection, Int32(SHUT_RDWR)) }
        idle.removeAll()
    }

    /// The reply for the next request to `path`, stepping through sequences.
    func nextReply(for path: String) -> TestHTTPServer.Reply? {
        guard case .sequence(let replies)? = replies[path], !replies.isEmpty else { return replies[path] }
        let index = min(answered[path, default: 0], replies.count - 1)
        answered[path, default: 0] += 1
        return replies[index]
    }
}
