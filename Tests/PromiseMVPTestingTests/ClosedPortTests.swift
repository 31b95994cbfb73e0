import Foundation
import PromiseMVPTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A port held for a test that means "the API is down" stays refused, and stays out of reach of the
/// other servers started meanwhile (the suite's tests run in parallel).
@Suite("ClosedPort")
struct ClosedPortTests {
    /// Whether a socket without `SO_REUSEADDR` can be bound to `port` on 127.0.0.1 now: not while
    /// any other socket holds it.
    static func canBind(_ port: UInt16) -> Bool {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    @Test("a closed port refuses connections and cannot be bound while held; released, it can")
    func heldWhileAlive() async throws {
        // Given
        var closed: ClosedPort? = try ClosedPort()
        let port = try #require(closed?.port)
        let url = try #require(closed?.baseURL)

        // When
        let refused = await PromiseExpectations.error(
            of: APIClient(baseURL: url, retry: .never).get("songs", as: [Int].self))
        let boundWhileHeld = Self.canBind(port)
        let listenedWhileHeld = (try? TestHTTPServer(port: port)).map { server in
            server.stop()
            return true
        }
        closed = nil

        // Then
        #expect(ServiceRequestError(refused ?? APIError.notHTTP) == .noNetwork)
        #expect(!boundWhileHeld)
        #expect(listenedWhileHeld == nil)
        // Released, the port is free: bindable, unless another socket of the suite was given it
        // in the moments since (an outgoing connection as its own end, with many open at once; a
        // server started beside this test, on a loaded machine): then it is that socket's, which a
        // port still held never is.
        #expect(Self.canBind(port) || Self.isTakenAgain(port))
    }

    /// Whether a listener or a connected socket (not one only bound, as a held port's is) has
    /// `port` as its own end, as Linux's `/proc/net/tcp` lists them; `false` where there is no
    /// such file.
    static func isTakenAgain(_ port: UInt16) -> Bool {
        let hex = String(format: ":%04X", port)
        return ["/proc/net/tcp", "/proc/net/tcp6"].contains { path in
            guard let table = try? String(contentsOfFile: path, encoding: .utf8) else { return false }
            return table.split(separator: "\n").dropFirst().contains { line in
                let fields = line.split(separator: " ")
                // local address, remote address, state: connected ones have a remote port, and
                // listeners are in state 0A (TCP_LISTEN).
                guard fields.count > 3 else { return false }
                return fields[1].hasSuffix(hex) && (fields[3] == "0A" || !fields[2].hasSuffix(":0000"))
            }
        }
    }

    @Test("a stopped server holds its port until it starts again: no other socket is given it")
    func stoppedServerHoldsItsPort() async throws {
        // Given: a server that answered nothing (so no closed connection lingers on its port)
        let server = try TestHTTPServer(["/songs": .status(200, body: "[1]")])
        defer { server.stop() }

        // When
        server.stop()
        let boundWhileStopped = Self.canBind(server.port)
        try server.start()
        let answered = await PromiseExpectations.value(
            of: APIClient(baseURL: server.baseURL, retry: .never).get("songs", as: [Int].self))

        // Then
        #expect(!boundWhileStopped)
        #expect(answered == [1])
    }
}
