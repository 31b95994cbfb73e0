import Foundation
import PromiseMVPTesting
import Promises
import Synchronization
import Testing

@testable import Services

/// The four verbs of `APIClient+Methods.swift` and the path rules of `APIClient+Paths.swift`.
@Suite("APIClient methods and paths")
struct APIClientMethodsTests {
    /// What a request arrived with: method, path and the header this suite sends.
    final class Seen: Sendable {
        private let lock = Mutex<[String]>([])
        var requests: [String] { lock.withLock { $0 } }
        func record(_ request: TestHTTPServer.Request) {
            lock.withLock {
                $0.append("\(request.method) \(request.path) \(request.headers["x-test"] ?? "-")")
            }
        }
    }

    @Test("GET, POST, PUT and DELETE each send the header fields they are given")
    func everyMethodSendsHeaders() async throws {
        // Given
        let seen = Seen()
        let server = try TestHTTPServer(responder: { request in
            seen.record(request)
            return .status(200, body: "1")
        })
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, timeout: 10)

        // When
        _ = await PromiseExpectations.value(of: client.get("a", as: Int.self, headers: ["X-Test": "get"]))
        _ = await PromiseExpectations.value(
            of: client.post("b", body: 1, as: Int.self, headers: ["X-Test": "post"]))
        _ = await PromiseExpectations.value(
            of: client.put("c", body: 1, as: Int.self, headers: ["X-Test": "put"]))
        _ = await PromiseExpectations.value(of: client.delete("d", headers: ["X-Test": "delete"]))

        // Then
        #expect(seen.requests == ["GET /a get", "POST /b post", "PUT /c put", "DELETE /d delete"])
    }

    @Test(
        "an identifier escaped as a path segment stays one segment and arrives as it was escaped",
        arguments: [
            ("plain", "plain"), ("a/b", "a%2Fb"), ("a b", "a%20b"), ("50%", "50%25"), ("a?b#c", "a%3Fb%23c"),
            ("ünï", "%C3%BCn%C3%AF"),
        ])
    func pathSegment(id: String, escaped: String) async throws {
        // Given
        let seen = Seen()
        let server = try TestHTTPServer(responder: { request in
            seen.record(request)
            return .status(200, body: "1")
        })
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, timeout: 10)

        // When
        let segment = APIClient.pathSegment(id)
        _ = await PromiseExpectations.value(of: client.get("notes/\(segment)", as: Int.self))

        // Then
        #expect(segment == escaped)
        #expect(seen.requests == ["GET /notes/\(escaped) -"])
    }
}
