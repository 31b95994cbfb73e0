import Foundation
import PromiseMVPTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
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

        // When: three requests one after the other on one connection (written by hand: how a
        // URLSession reuses its connections is its own business, and varies with the load)
        let request = "GET /songs HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let (keptPort, closedPort) = (kept.port, closed.port)
        let onKept = await BlockingWork.run {
            RawHTTPConnection.exchanges(Array(repeating: request, count: 3), port: keptPort)
        }
        // (the other: read until the server closes the connection, which it does after one answer)
        let onClosed = await BlockingWork.run { RawHTTPConnection.exchange(request, port: closedPort) }

        // Then
        #expect(onKept?.count == 3 && onKept?.allSatisfy { $0.hasSuffix("[4]") } == true)
        #expect(kept.requests.count == 3 && kept.connectionsAccepted == 1)
        #expect(onClosed?.contains("Connection: close\r\n") == true && onClosed?.hasSuffix("[4]") == true)
        #expect(closed.requests.count == 1 && closed.connectionsAccepted == 1)
    }

    @Test("a server with a latency answers as without one, and keeps the latency it was given")
    func latencyKeepsAnswers() async throws {
        // Given
        let server = try TestHTTPServer(["/songs": .status(200, body: "[1, 2]")])
        defer { server.stop() }
        server.latency = TestHTTPServer.Latency(roundTrip: 0.01, jitter: 0.005)

        // When
        let answer = await PromiseExpectations.value(
            of: APIClient(baseURL: server.baseURL, retry: .never).get("songs", as: [Int].self))

        // Then
        #expect(answer == [1, 2])
        #expect(server.latency == TestHTTPServer.Latency(roundTrip: 0.01, jitter: 0.005))
        #expect(server.requests == ["GET /songs HTTP/1.1"])
    }

    @Test("a latency longer than a client's timeout times the client out, as slow headers do")
    func latencyPastTheTimeoutTimesOut() async throws {
        // Given: answers 3 s late, to a client that waits 1 s
        let server = try TestHTTPServer(["/songs": .status(200, body: "[1]")])
        defer { server.stop() }
        server.latency = TestHTTPServer.Latency(roundTrip: 3)
        let client = APIClient(baseURL: server.baseURL, timeout: 1, retry: .never)

        // When
        let error = await PromiseExpectations.error(of: client.get("songs", as: [Int].self))

        // Then: the timeout, never a duration, is what is checked
        #expect(error.map(ServiceRequestError.init) == .timedOut, "\(String(describing: error))")
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
            _ = release.wait(timeout: .now() + 600)
            return (200, "[1]")
        }
        // Under ThreadSanitizer the stop below can take more than a minute: the client waits 600 s.
        let client = APIClient(baseURL: server.baseURL, timeout: 600, retry: .never)
        let held = client.get("held", as: [Int].self)
        _ = await PromiseExpectations.value(of: arrived, timeout: 120)

        // When: the accept loop is woken, not left waiting for the next client. The stop runs on a
        // thread of its own, started here: a task would queue behind the rest of the suite on the
        // cooperative pool (under ThreadSanitizer, for longer than any bound this test could set).
        // The bound is a fifth of how long the request is held: a stop that waited for the request
        // to be answered would miss it by far.
        let (stopped, stoppedSeal) = Promise<Void>.pending()
        Thread {
            server.stop()
            stoppedSeal.fulfill()
        }.start()
        let stoppedInTime = await PromiseExpectations.value(of: stopped, timeout: 120) != nil
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
        let answer = await BlockingWork.run { RawHTTPConnection.exchange("GET\r\n\r\n", port: server.port) }
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
            RawHTTPConnection.exchange(
                "POST /songs HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc", port: server.port,
                closingAfterSending: true)
        }

        // Then
        #expect(answer?.hasPrefix("HTTP/1.1 200") == true, "\(answer ?? "no answer")")
        #expect(server.requests == ["POST /songs HTTP/1.1"])
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
