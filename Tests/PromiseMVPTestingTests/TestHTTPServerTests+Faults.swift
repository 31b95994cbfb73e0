import Foundation
import PromiseMVPTesting
import Testing

/// The replies that misbehave on purpose (`TestHTTPServer+Serve.swift`), each as a client sees it:
/// the bytes on the wire, or the failure `APIClient` makes of them.
extension TestHTTPServerTests {
    @Test(
        "a sequence a responder gives answers with its first reply, a redirect with 302 and its Location, a large body whole"
    )
    func faultRepliesOnTheWire() async throws {
        // Given: a responder (a route's sequence is stepped before it is answered)
        let replies: [String: TestHTTPServer.Reply] = [
            "/first": .sequence([.status(201, body: "[1]"), .status(500, body: "{}")]),
            "/moved": .redirect(to: "/v2/songs"),
            "/announced": .largeBody(bytes: 100, announced: true),
            "/unannounced": .largeBody(bytes: 100, announced: false),
        ]
        let server = try TestHTTPServer { request in replies[request.path] ?? .status(404, body: "{}") }
        defer { server.stop() }

        // When
        var answers: [String: String] = [:]
        for path in ["/first", "/moved", "/announced", "/unannounced"] {
            answers[path] = await BlockingWork.run {
                RawHTTPConnection.exchange("GET \(path) HTTP/1.1\r\nHost: here\r\n\r\n", port: server.port)
            }
        }

        // Then
        func parts(_ path: String) -> (head: String, body: String) {
            let answer = answers[path] ?? ""
            guard let end = answer.range(of: "\r\n\r\n") else { return (answer, "") }
            return (String(answer[..<end.lowerBound]), String(answer[end.upperBound...]))
        }
        #expect(parts("/first").head.hasPrefix("HTTP/1.1 201") && parts("/first").body == "[1]")
        #expect(
            parts("/moved").head.hasPrefix("HTTP/1.1 302")
                && parts("/moved").head.contains("Location: /v2/songs"))
        #expect(parts("/announced").head.contains("Content-Length: 100"), "\(parts("/announced").head)")
        #expect(!parts("/unannounced").head.contains("Content-Length"))
        for path in ["/announced", "/unannounced"] {
            #expect(parts(path).head.hasPrefix("HTTP/1.1 200"), "\(path)")
            #expect(parts(path).body == String(repeating: " ", count: 100), "\(path)")
        }
    }

    @Test("a reset is no network to the client; slow headers past its timeout, a timeout")
    func resetAndSlowHeaders() async throws {
        // Given: a client that waits one second for an answer
        let server = try TestHTTPServer([
            "/reset": .reset, "/slow": .slowHeaders(seconds: 3, then: .status(200, body: "[1]")),
        ])
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, timeout: 1, retry: .never)

        // When
        let reset = await PromiseExpectations.error(of: client.get("reset", as: [Int].self))
        let slow = await PromiseExpectations.error(of: client.get("slow", as: [Int].self))

        let rawReset = await BlockingWork.run {
            RawHTTPConnection.endsWithReset("GET /reset HTTP/1.1\r\nHost: here\r\n\r\n", port: server.port)
        }

        // Then: a reset on the wire, not a close
        #expect(rawReset == true)
        #expect(reset.map(ServiceRequestError.init) == .noNetwork, "\(String(describing: reset))")
        #expect(slow.map(ServiceRequestError.init) == .timedOut, "\(String(describing: slow))")
    }
}

extension TestHTTPServerTests {
    @Test(
        "a head cut short by a client that leaves is not answered, and the server serves the next request",
        arguments: ["GE", "GET /songs HTTP/1.1\r\nHost: here\r\n"])
    func headCutShort(sent: String) async throws {
        // Given
        let server = try TestHTTPServer(["/songs": .status(200, body: "[1]")])
        defer { server.stop() }

        // When: part of a head, then the client's sending side closed; then a whole request
        let answer = await BlockingWork.run {
            RawHTTPConnection.exchange(sent, port: server.port, closingAfterSending: true)
        }
        let next = await PromiseExpectations.value(
            of: APIClient(baseURL: server.baseURL, retry: .never).get("songs", as: [Int].self))

        // Then
        #expect(answer == "")
        #expect(next == [1])
    }
}

extension TestHTTPServerTests {
    @Test("a route's sequence answers its replies in turn, then its last again")
    func sequenceEndsOnItsLast() async throws {
        // Given
        let server = try TestHTTPServer([
            "/songs": .sequence([.status(201, body: "[1]"), .status(500, body: "{}")])
        ])
        defer { server.stop() }

        // When
        var statuses: [String] = []
        for _ in 1...3 {
            let answer = await BlockingWork.run {
                RawHTTPConnection.exchange("GET /songs HTTP/1.1\r\nHost: here\r\n\r\n", port: server.port)
            }
            statuses.append(String((answer ?? "").prefix(12)))
        }

        // Then
        #expect(statuses == ["HTTP/1.1 201", "HTTP/1.1 500", "HTTP/1.1 500"])
    }
}
