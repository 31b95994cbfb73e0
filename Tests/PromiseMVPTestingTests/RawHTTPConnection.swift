import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A client that writes HTTP by hand, for what `APIClient` never sends: a malformed request line,
/// a body cut short, a form encoded as a token endpoint reads it.
enum RawHTTPConnection {
    /// Sends `text` on a connection of its own to 127.0.0.1:`port` and reads what comes back until
    /// the server closes it (blocking: call it off the cooperative pool). With
    /// `closingAfterSending`, the connection's sending side is shut once `text` is sent. A read
    /// gives up after 120 seconds of silence and gives `nil`, so a server that never answers, or
    /// answers and never closes, fails the test instead of holding it.
    static func exchange(_ text: String, port: UInt16, closingAfterSending: Bool = false) -> String? {
        guard let socket = connected(to: port) else { return nil }
        defer { close(socket) }
        guard sendAll(text, on: socket) else { return nil }
        if closingAfterSending { shutdown(socket, Int32(SHUT_WR)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var count = 0
        repeat {
            count = recv(socket, &buffer, buffer.count, 0)
            if count > 0 { received += buffer[0..<count] }
        } while count > 0
        let gaveUp = count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        return gaveUp ? nil : String(decoding: received, as: UTF8.self)
    }

    /// Sends `text` as ``exchange(_:port:closingAfterSending:)`` does and tells whether the server
    /// ended the connection with a reset (`ECONNRESET`) rather than a close; `nil` when no
    /// connection was made.
    static func endsWithReset(_ text: String, port: UInt16) -> Bool? {
        guard let socket = connected(to: port) else { return nil }
        defer { close(socket) }
        guard sendAll(text, on: socket) else { return errno == ECONNRESET }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = recv(socket, &buffer, buffer.count, 0), count > 0 {}
        return errno == ECONNRESET
    }

    /// Sends `text` on a connection of its own to 127.0.0.1:`port` and reads until what came
    /// holds `marker`, then closes the connection: for an answer that never ends, such as an event
    /// stream. `nil` when the server closed first or `patience` seconds passed in silence: a
    /// stream is silent until the test sends, and a loaded machine (a sanitized run) may take
    /// minutes to, so the default is 600.
    static func read(_ text: String, port: UInt16, until marker: String, patience: Int = 600) -> String? {
        guard let socket = connected(to: port, patience: patience) else { return nil }
        defer { close(socket) }
        guard sendAll(text, on: socket) else { return nil }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains(marker) {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Sends each request of `requests` on one connection to 127.0.0.1:`port`, the next once the
    /// answer before it came whole (its head, then `Content-Length` bytes), and gives the answers;
    /// `nil` when the connection was refused or closed before an answer came whole.
    static func exchanges(_ requests: [String], port: UInt16) -> [String]? {
        guard let socket = connected(to: port) else { return nil }
        defer { close(socket) }
        var answers: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        for request in requests {
            guard sendAll(request, on: socket) else { return nil }
            var received: [UInt8] = []
            while !isWhole(received) {
                let count = recv(socket, &buffer, buffer.count, 0)
                guard count > 0 else { return nil }
                received += buffer[0..<count]
            }
            answers.append(String(decoding: received, as: UTF8.self))
        }
        return answers
    }

    /// Whether `bytes` hold an answer's head and as many body bytes as its `Content-Length` says.
    private static func isWhole(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let length =
            text[..<end.lowerBound].split(separator: "\r\n")
            .first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return text.utf8.count - text[..<end.upperBound].utf8.count >= length
    }

    /// Sends all of `text` on `socket`.
    private static func sendAll(_ text: String, on socket: Int32) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == bytes.count
    }

    /// A socket connected to 127.0.0.1:`port`, whose reads give up after `patience` seconds of
    /// silence.
    private static func connected(to port: UInt16, patience seconds: Int = 120) -> Int32? {
        #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            return nil
        }
        var patience = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
        return socket
    }
}
