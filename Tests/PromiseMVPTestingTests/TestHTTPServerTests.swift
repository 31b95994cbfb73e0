import Foundation
import PromiseMVPTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The loopback server goes down and comes back at the same address, and listens where it is told.
@Suite("TestHTTPServer")
struct TestHTTPServerTests {
    @Test(
        "stopped, the server refuses connections, kept-open ones too; started again, it answers at the same address",
        arguments: [false, true])
    func downThenUpAgain(keepsConnectionsOpen: Bool) async throws {
        // Given: a client that made a request already (on a connection kept open, when it is)
        let server = try TestHTTPServer(
            ["/songs": .status(200, body: "[1]")], keepsConnectionsOpen: keepsConnectionsOpen)
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, retry: .never)
        #expect(await PromiseExpectations.value(of: client.get("songs", as: [Int].self)) == [1])

        // When
        server.stop()
        let down = await PromiseExpectations.error(of: client.get("songs", as: [Int].self))
        try server.start()
        let up = await PromiseExpectations.value(of: client.get("songs", as: [Int].self))

        // Then
        #expect(ServiceRequestError(down ?? APIError.notHTTP) == .noNetwork)
        #expect(up == [1])
    }

    @Test(
        "a server that keeps connections open answers a client's requests on one; by default each has its own"
    )
    func connectionsKeptOpen() async throws {
        // Given
        let kept = try TestHTTPServer(["/songs": .status(200, body: "[4]")], keepsConnectionsOpen: true)
        let closed = try TestHTTPServer(["/songs": .status(200, body: "[4]")])
        defer {
            kept.stop()
            closed.stop()
        }

        // When: three requests one after the other to each
        for server in [kept, closed] {
            let client = APIClient(baseURL: server.baseURL, retry: .never)
            for _ in 1...3 {
                #expect(await PromiseExpectations.value(of: client.get("songs", as: [Int].self)) == [4])
            }
        }

        // Then
        #expect(kept.requests.count == 3 && kept.connectionsAccepted == 1)
        #expect(closed.requests.count == 3 && closed.connectionsAccepted == 3)
    }

    @Test("a server made on a chosen port listens there")
    func chosenPort() async throws {
        // Given
        let port = try TestHTTPServer.closedPort()

        // When
        let server = try TestHTTPServer(["/songs": .status(200, body: "[2]")], port: port)
        defer { server.stop() }
        let client = APIClient(baseURL: URL(string: "http://127.0.0.1:\(port)/")!, retry: .never)

        // Then
        #expect(server.port == port)
        #expect(await PromiseExpectations.value(of: client.get("songs", as: [Int].self)) == [2])
    }

    @Test("stop and start are safe to repeat")
    func repeatedStopAndStart() async throws {
        // Given
        let server = try TestHTTPServer(["/songs": .status(200, body: "[3]")])
        defer { server.stop() }

        // When
        server.stop()
        server.stop()
        try server.start()
        try server.start()

        // Then
        let client = APIClient(baseURL: server.baseURL, retry: .never)
        #expect(await PromiseExpectations.value(of: client.get("songs", as: [Int].self)) == [3])
    }

    @Test(
        "stop returns while a request is being served; that connection is closed once answered, kept open or not",
        arguments: [false, true])
    func stopWhileServing(keepsConnectionsOpen: Bool) async throws {
        // Given: a request the server is still answering, and no one else connecting
        let (arrived, arrivedSeal) = Promise<Void>.pending()
        let release = DispatchSemaphore(value: 0)
        let server = try TestHTTPServer(keepsConnectionsOpen: keepsConnectionsOpen) { _ in
            arrivedSeal.fulfill()
            _ = release.wait(timeout: .now() + 60)
            return (200, "[1]")
        }
        let client = APIClient(baseURL: server.baseURL, timeout: 60, retry: .never)
        let held = client.get("held", as: [Int].self)
        _ = await PromiseExpectations.value(of: arrived)

        // When: the accept loop is woken, not left waiting for the next client
        let stopped = Promise<Void> { await BlockingWork.run { server.stop() } }
        let stoppedInTime = await PromiseExpectations.value(of: stopped, timeout: 30) != nil
        release.signal()

        // Then: new connections are refused, the one being served is answered, then closed: the
        // same client's next request finds no server on it
        #expect(stoppedInTime)
        let refused = await PromiseExpectations.error(
            of: APIClient(baseURL: server.baseURL, retry: .never).get("held", as: [Int].self))
        #expect(ServiceRequestError(refused ?? APIError.notHTTP) == .noNetwork)
        #expect(await PromiseExpectations.value(of: held) == [1])
        let again = await PromiseExpectations.error(of: client.get("held", as: [Int].self))
        #expect(ServiceRequestError(again ?? APIError.notHTTP) == .noNetwork)
        #expect(server.requests.count == 1)
    }

    @Test("a request line without a target is not answered, and the server serves the next request")
    func requestLineWithoutTarget() async throws {
        // Given
        let server = try TestHTTPServer(["/songs": .status(200, body: "[1]")])
        defer { server.stop() }

        // When: a request line of one word, then a request as it should be
        let answer = await BlockingWork.run { Self.exchange("GET\r\n\r\n", port: server.port) }
        let next = await PromiseExpectations.value(
            of: APIClient(baseURL: server.baseURL, retry: .never).get("songs", as: [Int].self))

        // Then: the connection is closed without an answer
        #expect(answer == "")
        #expect(next == [1])
    }

    @Test("a body cut short by a client that stops sending is answered as far as it came")
    func bodyCutShort() async throws {
        // Given
        let server = try TestHTTPServer(["/songs": .status(200, body: "[1]")])
        defer { server.stop() }

        // When: ten bytes announced, three sent, then the client's sending side closed
        let answer = await BlockingWork.run {
            Self.exchange(
                "POST /songs HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc", port: server.port,
                closingAfterSending: true)
        }

        // Then
        #expect(answer?.hasPrefix("HTTP/1.1 200") == true, "\(answer ?? "no answer")")
        #expect(server.requests == ["POST /songs HTTP/1.1"])
    }

    /// Sends `text` on a connection of its own to 127.0.0.1:`port` and reads what comes back until
    /// the server closes it (blocking: call it off the cooperative pool). With
    /// `closingAfterSending`, the connection's sending side is shut once `text` is sent. A read
    /// gives up after 30 seconds of silence, so a server that never answers fails the test
    /// instead of holding it.
    static func exchange(_ text: String, port: UInt16, closingAfterSending: Bool = false) -> String? {
        #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { return nil }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        var patience = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == bytes.count else {
            return nil
        }
        if closingAfterSending { shutdown(socket, Int32(SHUT_WR)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = recv(socket, &buffer, buffer.count, 0), count > 0 {
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    @Test(
        "a closed port is one no server on 'any free port' can be given meanwhile, and nothing answers there")
    func closedPortOutsideTheServersRange() async throws {
        // Given / When
        let port = try TestHTTPServer.closedPort()
        let server = try TestHTTPServer(["/songs": .status(200, body: "[1]")])
        defer { server.stop() }

        // Then: below the ports handed out for port 0 (32768 on Linux, 49152 on Apple platforms)
        #expect(port < 32_768 && server.port >= 32_768)
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/"))
        let refused = await PromiseExpectations.error(
            of: APIClient(baseURL: url, retry: .never).get("songs", as: [Int].self))
        #expect(ServiceRequestError(refused ?? APIError.notHTTP) == .noNetwork)
    }
}
