import Foundation
import Promises

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Server-Sent Events endpoint for tests (`text/event-stream`), answered by
/// ``TestHTTPServer/Reply/eventStream(_:)``: every client connected gets what the test sends, as
/// it sends it; a client that comes back with `Last-Event-ID` first gets the events sent after
/// that one, as a server that keeps its recent history does (the last 1,000 at least).
public final class TestEventSource: Sendable {
    private struct State {
        /// What waits to be written, by connection.
        var pending: [Int: [String]] = [:]
        var nextConnection = 0
        /// The connections to close.
        var dropping: Set<Int> = []
        /// Every event sent with an identifier, in order, for a client that comes back.
        var history: [(id: String, text: String)] = []
        /// The `Last-Event-ID` of each connection, in the order they came (`nil`: none).
        var lastEventIDs: [String?] = []
    }

    private let state = Locked(State())
    /// How many events with an identifier are kept for clients that come back, at most.
    static let historyKept = 1_000
    private let connected = DispatchSemaphore(value: 0)
    private let disconnected = DispatchSemaphore(value: 0)
    /// What the answer's head says before the stream: a status and content type other than
    /// `200 text/event-stream` make a server that refuses or has no stream.
    let status: Int
    let contentType: String

    /// Makes the endpoint.
    ///
    /// - Parameters:
    ///   - status: The answer's status; `200` by default.
    ///   - contentType: The answer's content type; `text/event-stream` by default.
    public init(status: Int = 200, contentType: String = "text/event-stream") {
        (self.status, self.contentType) = (status, contentType)
    }

    /// The `Last-Event-ID` each connection sent, in the order they came (`nil` when none).
    public var lastEventIDs: [String?] { state.withLock { $0.lastEventIDs } }

    /// How many clients are connected now.
    public var connections: Int { state.withLock { $0.pending.count } }

    /// Sends an event to every client connected, and keeps it for those that come back.
    ///
    /// - Parameters:
    ///   - id: The event's identifier (`id:`), if any.
    ///   - event: Its type (`event:`), if any.
    ///   - data: Its data: one `data:` line per line.
    public func send(id: String? = nil, event: String? = nil, data: String) {
        var text = id.map { "id: \($0)\n" } ?? ""
        text += event.map { "event: \($0)\n" } ?? ""
        text += data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }.joined()
        text += "\n"
        state.withLock { state in
            guard let id else { return }
            state.history.append((id, text))
            // A window, as a server keeps: a client back from further away misses the older ones
            // and catches up by refreshing.
            if state.history.count > Self.historyKept { state.history.removeFirst(state.history.count / 2) }
        }
        write(text)
    }

    /// Writes `text` as it is to every client connected: a comment (`": keep-alive\n"`), a
    /// `retry:` field, or something malformed.
    ///
    /// - Parameter text: The bytes, as UTF-8.
    public func write(_ text: String) {
        state.withLock { state in
            for connection in state.pending.keys { state.pending[connection, default: []].append(text) }
        }
    }

    /// Closes every connection, as a server that restarts does; clients may come back.
    public func dropConnections() {
        state.withLock { $0.dropping.formUnion($0.pending.keys) }
    }

    /// Waits until `count` clients have connected since the source was made.
    ///
    /// - Parameters:
    ///   - count: How many connections in all.
    ///   - seconds: How long to wait at most.
    /// - Returns: Whether that many came in time.
    public func waitForConnections(_ count: Int, seconds: Double = 60) async -> Bool {
        let (connected, state) = (connected, state)
        return await BlockingWork.run {
            let deadline = DispatchTime.now() + seconds
            while state.withLock({ $0.lastEventIDs.count }) < count {
                guard connected.wait(timeout: deadline) == .success else { return false }
            }
            return true
        }
    }

    /// Waits until at most `count` clients are connected: a client that closed its connection is
    /// seen within 20 ms.
    ///
    /// - Parameters:
    ///   - count: How many may still be connected.
    ///   - seconds: How long to wait at most.
    /// - Returns: Whether so few were left in time.
    public func waitForConnections(atMost count: Int, seconds: Double = 60) async -> Bool {
        let (disconnected, state) = (disconnected, state)
        return await BlockingWork.run {
            let deadline = DispatchTime.now() + seconds
            while state.withLock({ $0.pending.count }) > count {
                guard disconnected.wait(timeout: deadline) == .success else { return false }
            }
            return true
        }
    }

    /// Answers one connection: the head, the events a returning client missed, then what the test
    /// sends, until the client closes or the test drops it.
    func serve(_ socket: Int32, lastEventID: String?) {
        let head =
            "HTTP/1.1 \(status) Status\r\nContent-Type: \(contentType)\r\nCache-Control: no-cache\r\n"
            + (status == 200 ? "" : "Content-Length: 0\r\n") + "Connection: close\r\n\r\n"
        let connection = state.withLock { state -> Int in
            let connection = state.nextConnection
            state.nextConnection += 1
            state.lastEventIDs.append(lastEventID)
            let missed =
                lastEventID.flatMap { id in state.history.firstIndex { $0.id == id } }
                .map { Array(state.history[($0 + 1)...].map(\.text)) } ?? []
            if status == 200 { state.pending[connection] = missed }
            return connection
        }
        connected.signal()
        guard TestHTTPServer.sendWhole(socket, head, []), status == 200 else { return }
        defer {
            state.withLock { _ = $0.pending.removeValue(forKey: connection) }
            disconnected.signal()
        }
        while true {
            let (texts, dropped) = state.withLock { state -> ([String], Bool) in
                defer { state.pending[connection] = [] }
                return (state.pending[connection] ?? [], state.dropping.remove(connection) != nil)
            }
            if dropped { return }
            for text in texts where !TestHTTPServer.sendWhole(socket, "", Array(text.utf8)) { return }
            if Self.clientClosed(socket) { return }
        }
    }

    /// Waits a little for the client to close `socket`: whether it did. (What paces the loop that
    /// writes what the test sends; a test never waits on it.)
    private static func clientClosed(_ socket: Int32) -> Bool {
        var watched = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&watched, 1, 20) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) <= 0
    }
}
