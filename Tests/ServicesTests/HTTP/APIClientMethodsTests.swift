import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// The four verbs of `APIClient+Methods.swift` and the path rules of `APIClient+Paths.swift`.
@Suite("APIClient methods and paths")
struct APIClientMethodsTests {
    /// What a request arrived with: method, path and the header this suite sends.
    final class Seen: Sendable {
        private let lock = Locked<[String]>([])
        var requests: [String] { lock.withLock { $0 } }
        func record(_ request: TestHTTPServer.Request) {
            lock.withLock {
                $0.append("\(request.method) \(request.path) \(request.headers["x-test"] ?? "-")")
            }
        }
    }

    @Test(
        "a 304 to a request that asked no If-None-Match (a write with If-Match, say) is not taken as an answer"
    )
    func notModifiedToAnUnconditionalRequestIsRefused() async throws {
        // Given: a server that answers everything 304
        let server = try TestHTTPServer(responder: { _ in .status(304, body: "") })
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)

        // When
        let write = await PromiseExpectations.error(
            of: client.put(
                "c", body: 1, as: Int.self, headers: ["If-Match": "\"3\"", "Idempotency-Key": "k"]))
        let read = await PromiseExpectations.error(
            of: client.get("a", as: Int.self, headers: ["X-Test": "get"]))

        // Then: neither is delivered; each says what came back
        for error in [write, read] {
            guard case .redirected(status: 304, _)? = error as? APIError else {
                Issue.record("\(String(describing: error))")
                continue
            }
        }
    }

    @Test("every request asks for JSON; a body goes as JSON unless the request names its type")
    func jsonByDefault() async throws {
        // Given: a server that writes down what each request asked for and said it carries
        let seen = Locked<[String]>([])
        let server = try TestHTTPServer(responder: { request in
            seen.withLock {
                $0.append(
                    "\(request.path) \(request.headers["accept"] ?? "-") \(request.headers["content-type"] ?? "-")"
                )
            }
            return .status(200, body: "1")
        })
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)

        // When
        _ = await PromiseExpectations.value(of: client.get("a", as: Int.self))
        _ = await PromiseExpectations.value(of: client.post("b", body: 1, as: Int.self))
        _ = await PromiseExpectations.value(
            of: client.send(.post, "c", body: Data("note".utf8), headers: ["Content-Type": "text/plain"]))

        // Then
        #expect(
            seen.withLock { $0 } == [
                "/a application/json -", "/b application/json application/json",
                "/c application/json text/plain",
            ])
    }

    @Test(
        "a write's header fields: its key always, If-Match with the version it was made from, as an entity tag"
    )
    func writeHeaders() {
        #expect(
            APIClient.writeHeaders(idempotencyKey: "k1", basedOn: "3")
                == ["Idempotency-Key": "k1", "If-Match": #""3""#])
        #expect(APIClient.writeHeaders(idempotencyKey: "k2", basedOn: nil) == ["Idempotency-Key": "k2"])
    }

    @Test("a 412 whose copy is over the conflict bound reaches a caller of send as a 412, its body left out")
    func oversizedConflictIsAPlain412() async throws {
        // Given: a server that refuses the write with a copy one byte over the bound
        let copy = String(repeating: "x", count: APIClient.maximumConflictBytes + 1)
        let server = try TestHTTPServer(responder: { _ in .status(412, body: copy) })
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)

        // When
        let error = await PromiseExpectations.error(of: client.send(.put, "notes/1", body: Data("{}".utf8)))

        // Then: the public error, as for any 412, not the outbox's own
        guard case APIError.httpStatus(412, let body)? = error else {
            Issue.record("expected APIError.httpStatus(412), got \(String(describing: error))")
            return
        }
        #expect(body.isEmpty)
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
        let client = APIClient(baseURL: server.baseURL, timeout: 30)

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
        "a path with a query keeps its question mark, escapes the rest, and keeps escapes already made",
        arguments: [
            ("notes?since=a b", "notes?since=a%20b"), ("notes?q=50%25", "notes?q=50%25"),
            ("a b/notes?x=1", "a%20b/notes?x=1"),
        ])
    func pathWithQuery(path: String, expected: String) throws {
        // Given
        let client = APIClient(baseURL: try #require(URL(string: "http://127.0.0.1:9/api/")))

        // Then
        #expect(client.url(for: path).absoluteString == "http://127.0.0.1:9/api/" + expected)
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
        let client = APIClient(baseURL: server.baseURL, timeout: 30)

        // When
        let segment = APIClient.pathSegment(id)
        _ = await PromiseExpectations.value(of: client.get("notes/\(segment)", as: Int.self))

        // Then
        #expect(segment == escaped)
        #expect(seen.requests == ["GET /notes/\(escaped) -"])
    }
}
