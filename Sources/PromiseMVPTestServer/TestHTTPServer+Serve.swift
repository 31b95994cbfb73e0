import Foundation
import Promises

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading one request and answering it as its ``TestHTTPServer/Reply`` says, well or badly.
extension TestHTTPServer {
    /// Sends `reply`; with `Connection: close` unless `keepingConnection` (a complete answer on a
    /// server that keeps connections open).
    func answer(_ connection: Int32, _ reply: Reply, to request: Request, keepingConnection: Bool = false) {
        let closing = keepingConnection ? "" : "Connection: close\r\n"
        switch reply {
        case .status(let status, let body, let contentType, let headers):
            let bytes = Array(body.utf8)
            let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
            Self.sendWhole(
                connection,
                "HTTP/1.1 \(status) Status\r\nContent-Type: \(contentType)\r\nContent-Length: \(bytes.count)\r\n\(extra)\(closing)\r\n",
                bytes)
        case .bytes(let status, let body, let contentType, let headers):
            let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
            Self.sendWhole(
                connection,
                "HTTP/1.1 \(status) Status\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n\(extra)\(closing)\r\n",
                Array(body))
        case .slowHeaders(let seconds, let then):
            // The server being slow, not the test waiting: the client's timeout is what is tested.
            usleep(UInt32(max(0, seconds) * 1_000_000))
            answer(connection, then, to: request, keepingConnection: keepingConnection)
        case .reset:
            var abort = linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &abort, socklen_t(MemoryLayout<linger>.size))
        case .closeWithoutAnswer:
            break  // `serve` closes the connection
        case .redirect(let location):
            Self.sendWhole(
                connection,
                "HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\n\(closing)\r\n",
                [])
        case .sequence(let replies):
            if let first = replies.first {
                answer(connection, first, to: request, keepingConnection: keepingConnection)
            }
        case .eventStream(let source):
            source.serve(connection, lastEventID: request.headers["last-event-id"])
        case .never:
            var byte: UInt8 = 0
            _ = recv(connection, &byte, 1, 0)  // returns when the client closes
            clientClosed.signal()
        case .largeBody(let bytes, let announced):
            let length = announced ? "Content-Length: \(bytes)\r\n" : ""
            Self.sendWhole(
                connection,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(length)Connection: close\r\n\r\n", [])
            let chunk = [UInt8](repeating: 0x20, count: 64 << 10)
            var left = bytes
            while left > 0, Self.sendWhole(connection, "", Array(chunk.prefix(left))) {
                left -= min(left, chunk.count)
            }
        case .closeMidBody:
            Self.sendWhole(
                connection,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
                Array(#"[{"id": 1, "ti"#.utf8))
        }
    }

    /// Reads the head and the body of one request.
    func readRequest(_ connection: Int32) -> Request? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 1_000_000 {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received.append(contentsOf: buffer[0..<count])
            if let end = Self.headEnd(received) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                let lines = head.split(separator: "\r\n")
                guard let requestLine = lines.first else { return nil }
                state.lock.withLock { state.requests.append(String(requestLine)) }
                let length =
                    lines.first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                var body = Array(received[end.upperBound...])
                while body.count < length {
                    let count = recv(connection, &buffer, buffer.count, 0)
                    guard count > 0 else { break }
                    body.append(contentsOf: buffer[0..<count])
                }
                let parts = requestLine.split(separator: " ")
                guard parts.count > 1 else { return nil }
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                        .trimmingCharacters(in: .whitespaces)
                }
                return Request(
                    method: String(parts[0]), path: String(parts[1]), body: Data(body), headers: headers)
            }
        }
        return nil
    }

    /// Where the blank line that ends a request's head is, searched by hand (the standard
    /// library's `firstRange(of:)` needs macOS 13 / iOS 16).
    static func headEnd(_ bytes: [UInt8]) -> Range<Int>? {
        let terminator: [UInt8] = [13, 10, 13, 10]  // CR LF CR LF
        guard bytes.count >= terminator.count else { return nil }
        return (0...(bytes.count - terminator.count)).lazy
            .first { bytes[$0..<($0 + terminator.count)].elementsEqual(terminator) }
            .map { $0..<($0 + terminator.count) }
    }
}
