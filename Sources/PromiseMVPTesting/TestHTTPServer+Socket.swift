import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    static func openListener(port: UInt16) throws -> (Int32, UInt16) {
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
        // A port given back by a stopped server may be taken again at once.
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, Foundation.listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// Sends `head` and `body` whole, or as much as a peer that closed its end took.
    static func sendWhole(_ connection: Int32, _ head: String, _ body: [UInt8]) {
        let bytes = Array(head.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Self.noSignal)
            }
            guard count > 0 else { return }
            sent += count
        }
    }
}
