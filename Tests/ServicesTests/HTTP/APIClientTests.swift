import Foundation
import PromiseMVPTesting
import Testing

@testable import Promises
@testable import Services

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The API client against a real HTTP server on 127.0.0.1 that the tests start themselves.
@Suite("APIClient")
struct APIClientTests {
    struct Song: Codable, Equatable, Sendable {
        let id: Int
        let title: String
    }

    let server: TestHTTPServer
    let client: APIClient

    init() throws {
        server = try TestHTTPServer([
            "/songs": .status(200, body: #"[{"id": 1, "title": "Blue"}, {"id": 2, "title": "River"}]"#),
            "/missing": .status(404, body: #"{"error": "no such song"}"#),
            "/broken": .status(500, body: "internal error"),
            "/malformed": .status(200, body: #"[{"id": "one", "title": 3}]"#),
            "/html": .status(200, body: "<html>maintenance</html>", contentType: "text/html"),
            "/empty": .status(200, body: ""),
            "/slow": .never,
            "/cut": .closeMidBody,
            "/created": .status(201, body: #"{"id": 3, "title": "Case of You"}"#),
            "/songs/3": .status(200, body: #"{"id": 3, "title": "A Case of You"}"#),
        ])
        // Generous, so that only the timeout test times out, even on a loaded machine.
        client = APIClient(baseURL: server.baseURL, timeout: 30)
    }

    @Test("GET decodes the JSON body")
    func getDecodes() async {
        // When
        let songs = await PromiseExpectations.value(of: client.get("/songs", as: [Song].self))

        // Then
        #expect(songs == [Song(id: 1, title: "Blue"), Song(id: 2, title: "River")])
    }

    @Test("a status outside 2xx rejects with that status", arguments: ["/missing": 404, "/broken": 500])
    func statusRejects(path: String, status: Int) async {
        // When
        let error = await PromiseExpectations.error(of: client.get(path, as: [Song].self))

        // Then
        #expect(ServiceRequestError(error ?? APIError.notHTTP) == .httpStatus(status))
    }

    @Test("a body that does not decode rejects with a decoding error naming the type")
    func malformedBodyRejects() async {
        // When
        let error = await PromiseExpectations.error(of: client.get("/malformed", as: [Song].self))

        // Then
        guard case .decodingFailed(let type, let reason)? = error.map(ServiceRequestError.init) else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(type == "Array<Song>")
        #expect(reason.contains("id"))
    }

    @Test("an HTML page where JSON was expected is not the API's answer: the API was not reached")
    func htmlRejects() async {
        // When
        let error = await PromiseExpectations.error(of: client.get("/html", as: [Song].self))

        // Then
        guard case .notTheAPI(let reason)? = error as? APIError else {
            Issue.record("expected notTheAPI, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("text/html"))
        #expect(error.map(ServiceRequestError.init) == .notTheAPI)
        #expect(error.map { FailureClass($0).kind } == .offline)
    }

    @Test("an empty body is a decoding error that says so")
    func emptyBodyRejects() async {
        // When
        let error = await PromiseExpectations.error(of: client.get("/empty", as: [Song].self))

        // Then
        #expect(
            error.map(ServiceRequestError.init)
                == .decodingFailed(type: "Array<Song>", reason: "the body is empty"))
    }

    @Test("a server that never answers times out")
    func slowServerTimesOut() async {
        // When
        let impatient = APIClient(baseURL: server.baseURL, timeout: 1)
        let error = await PromiseExpectations.error(of: impatient.get("/slow", as: [Song].self))

        // Then
        #expect(error.map(ServiceRequestError.init) == .timedOut)
    }

    @Test("a connection closed in the middle of the body is a connectivity failure")
    func cutBodyIsNoNetwork() async {
        // When
        let error = await PromiseExpectations.error(of: client.get("/cut", as: [Song].self))

        // Then
        let mapped = error.map(ServiceRequestError.init)
        #expect(mapped?.isConnectivityFailure == true, "got \(String(describing: error))")
    }

    @Test("nothing listening is noNetwork, at once")
    func nothingListening() async throws {
        // Given
        let down = try ClosedPort()
        defer { withExtendedLifetime(down) {} }
        let offline = APIClient(baseURL: down.baseURL, timeout: 30)

        // When
        let error = await PromiseExpectations.error(of: offline.get("/songs", as: [Song].self), timeout: 20)

        // Then
        #expect(error.map(ServiceRequestError.init) == .noNetwork)
    }

    @Test("POST and PUT send JSON and decode the answer; DELETE succeeds on 2xx")
    func writes() async {
        // When
        let created = await PromiseExpectations.value(
            of: client.post("/created", body: Song(id: 0, title: "Case of You"), as: Song.self))
        let updated = await PromiseExpectations.value(
            of: client.put("/songs/3", body: Song(id: 3, title: "A Case of You"), as: Song.self))
        let deleted: Void? = await PromiseExpectations.value(of: client.delete("/songs/3"))

        // Then
        #expect(created == Song(id: 3, title: "Case of You"))
        #expect(updated == Song(id: 3, title: "A Case of You"))
        #expect(deleted != nil)
        let methods = server.requests
        #expect(methods.contains("POST /created HTTP/1.1"))
        #expect(methods.contains("PUT /songs/3 HTTP/1.1"))
        #expect(methods.contains("DELETE /songs/3 HTTP/1.1"))
    }

    @Test("cancelling the promise cancels the request")
    func cancellingCancelsRequest() async {
        // Given
        let patient = APIClient(baseURL: server.baseURL, timeout: 60)
        let request = patient.get("/slow", as: [Song].self)

        // When
        request.cancel()

        // Then
        let error = await PromiseExpectations.error(of: request, timeout: 20)
        #expect(error.map(ServiceRequestError.init) == .cancelled)
    }

    @Test("fractions of a second become whole seconds where URLSession counts only those")
    func timeoutRounding() {
        #if canImport(FoundationNetworking)
            #expect(APIClient.sessionTimeout(0.5) == 1)
            #expect(APIClient.sessionTimeout(1.2) == 2)
        #else
            #expect(APIClient.sessionTimeout(0.5) == 0.5)
        #endif
    }

    @Test("the client's timeout holds over a shorter one of its session's configuration")
    func clientTimeoutOverSession() async throws {
        // Given: a session whose requests may be silent for 1 s, and an answer 3 s away; the
        // client gives its requests 300 s (on Linux the session's 1 s cut it, as the 60 s of
        // `URLSession.shared` cut a client given 900 s)
        let server = try TestHTTPServer([
            "/late": .slowHeaders(seconds: 3, then: .status(200, body: #"[{"id": 1, "title": "Blue"}]"#))
        ])
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 1
        let patient = APIClient(
            baseURL: server.baseURL, timeout: 300, retry: .never,
            session: URLSession(configuration: configuration))

        // When
        let songs = await PromiseExpectations.value(of: patient.get("/late", as: [Song].self), timeout: 300)

        // Then: the answer, and the configuration the app gave left as it was
        #expect(songs == [Song(id: 1, title: "Blue")])
        #expect(configuration.timeoutIntervalForRequest == 1)
    }

    #if canImport(FoundationNetworking)
        @Test("on Linux, whose URLSession times a request from its start, a file is given its time")
        func fileRequestGetsItsTime() async throws {
            // Given: a client that gives a request 1 s, and a file of 4 MiB it gives 64 s more
            // (``RequestBody/slowestRate``); the API answers 3 s after the file arrived
            let server = try TestHTTPServer([
                "/files/1": .slowHeaders(seconds: 3, then: .status(204, body: ""))
            ])
            let folder = TemporaryFolder("APIClientTests")
            try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
            let file = folder.file("photo.jpg")
            try Data(count: 4 << 20).write(to: file)
            let quick = APIClient(baseURL: server.baseURL, timeout: 1, retry: .never)

            // When
            let body = RequestBody.file(file, size: 4 << 20) { _ in }
            let answer = await PromiseExpectations.value(
                of: quick.exchangeAnswer(.put, at: quick.url(for: "/files/1"), body: body, headers: [:]),
                timeout: 300)

            // Then: answered, not cut at the client's second
            #expect(answer?.status == 204)
        }
    #endif

    @Test("a client given its own coders decodes and encodes the API's conventions")
    func customCoders() async throws {
        // Given: an API that writes snake_case keys and dates as seconds
        struct Event: Codable, Equatable, Sendable {
            let eventName: String
            let startsAt: Date
        }
        let server = try TestHTTPServer([
            "/events": .status(200, body: #"[{"event_name": "Launch", "starts_at": 1800000000}]"#)
        ])
        defer { server.stop() }
        let client = APIClient(
            baseURL: server.baseURL, retry: .never,
            decoder: {
                let decoder = JSONDecoder()
                decoder.keyDecodingStrategy = .convertFromSnakeCase
                decoder.dateDecodingStrategy = .secondsSince1970
                return decoder
            })

        // When
        let events = await PromiseExpectations.value(of: client.get("events", as: [Event].self))

        // Then
        #expect(events == [Event(eventName: "Launch", startsAt: Date(timeIntervalSince1970: 1_800_000_000))])
        let standard = await PromiseExpectations.error(
            of: APIClient(baseURL: server.baseURL, retry: .never).get("events", as: [Event].self))
        #expect(standard is APIError)
    }
}
