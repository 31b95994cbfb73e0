import Foundation
import PromiseMVPTesting
import Testing

/// The loopback server goes down and comes back at the same address, and listens where it is told.
@Suite("TestHTTPServer")
struct TestHTTPServerTests {
    @Test("stopped, the server refuses connections; started again, it answers at the same address")
    func downThenUpAgain() async throws {
        // Given
        let server = try TestHTTPServer(["/songs": .status(200, body: "[1]")])
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
}
