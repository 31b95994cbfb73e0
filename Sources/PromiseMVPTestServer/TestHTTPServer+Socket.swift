import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `close(2)`, named apart from ``TestHTTPServer/Listener/close()``.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}

extension TestHTTPServer {
    // The socket seam: a peer that closed its end must not kill the test process with SIGPIPE.
    // Linux asks for that per send (MSG_NOSIGNAL); Apple platforms have no such flag and ask per
    // socket (SO_NOSIGPIPE, set on each accepted connection).
    #if os(Linux)
        static let noSignal = Int32(MSG_NOSIGNAL)
        static func ignoreSIGPIPE(_ socket: Int32) {}
    #elseif canImport(Darwin)
        static let noSignal: Int32 = 0
        static func ignoreSIGPIPE(_ socket: Int32) {
            var on: Int32 = 1
            setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        }
    #else
        #error("TestHTTPServer's sockets are written for Linux and Apple platforms")
    #endif

    /// A listening socket on 127.0.0.1 and the pipe that wakes its accept loop.
    ///
    /// Stopping wakes the loop through the pipe, the same way on every platform: shutting a
    /// listening socket down wakes a blocked `accept` on Linux, but on Apple's kernels `shutdown`
    /// answers `ENOTCONN` and `accept` sleeps on until the next client connects. So the loop never
    /// blocks in `accept`: it polls the listener and the pipe together, and accepts only when the
    /// listener has a connection waiting (the listener is non-blocking, in case that connection
    /// went away before `accept`).
    struct Listener: Sendable {
        let socket: Int32
        let port: UInt16
        /// The pipe's read end, polled with `socket`, and its write end, written once to wake.
        private let wakeRead: Int32
        private let wakeWrite: Int32

        /// Opens a listener on `port` (any free one for 0).
        init(port: UInt16) throws {
            (socket, self.port) = try TestHTTPServer.openSocket(port: port, listening: true)
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else {
                closeDescriptor(socket)
                throw POSIXError(.EMFILE)
            }
            (wakeRead, wakeWrite) = (ends[0], ends[1])
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        }

        /// The next connection, or `nil` once ``wake()`` was called (or the listener failed).
        func acceptUnlessWoken() -> Int32? {
            var watched = [
                pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            while true {
                let ready = poll(&watched, nfds_t(watched.count), -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return nil
                }
                if watched[1].revents != 0 { return nil }
                let connection = accept(socket, nil, nil)
                guard connection >= 0 else {
                    if [EINTR, ECONNABORTED, EAGAIN, EWOULDBLOCK].contains(errno) { continue }
                    return nil
                }
                // Apple's kernels hand out connections that inherit the listener's O_NONBLOCK;
                // the server reads and writes them blocking, on a thread of their own.
                _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) & ~O_NONBLOCK)
                TestHTTPServer.ignoreSIGPIPE(connection)
                return connection
            }
        }

        /// Wakes the accept loop; called once, by ``TestHTTPServer/stop()``.
        func wake() {
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }

        /// Closes the socket and the pipe; called once, by whoever owns the listener last.
        func close() {
            for descriptor in [socket, wakeRead, wakeWrite] { closeDescriptor(descriptor) }
        }
    }

    /// A TCP socket bound to `port` on 127.0.0.1 (any free one for 0), listening or not: one that
    /// is bound and does not listen holds the port and refuses every connection to it.
    ///
    /// - Returns: The socket and the port it is bound to.
    static func openSocket(port: UInt16, listening: Bool) throws -> (Int32, UInt16) {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        // A port given back by a stopped server may be taken again at once (by a listener, or by
        // the socket that holds it while the server is down), though the connections it closed
        // first linger on it (TIME_WAIT). A port handed out fresh has none: a socket that holds one
        // for a test takes it without the option, so that nothing else can bind it meanwhile. (On
        // Linux a bind to "any free port" skips a port bound with the option too: 19,900 of the
        // 28,232 ports taken one after the other, none of them one held so.)
        if listening || port != 0 {
            var reuse: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, !listening || Foundation.listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// Sends `head` and `body` whole, or as much as a peer that closed its end took.
    ///
    /// - Returns: Whether all of it was sent.
    @discardableResult
    static func sendWhole(_ connection: Int32, _ head: String, _ body: [UInt8]) -> Bool {
        let bytes = Array(head.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Self.noSignal)
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
}
