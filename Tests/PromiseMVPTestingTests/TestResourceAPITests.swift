import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import PromiseMVPTestServer

/// The in-memory resource API over a real socket: what it keeps, and the failures it makes on
/// purpose, each applied or not as documented.
@Suite("TestResourceAPI")
struct TestResourceAPITests {
    struct Note: Codable, Equatable, Sendable {
        var id: String?
        var text: String
        var length: Int?
        var version: String?
    }

    /// An API for `notes` that names its resources `t-N` and keeps a note's length, refusing
    /// bodies that are not notes; and a client for it that never retries.
    struct Subject {
        let api = Self.makeAPI()
        let server: TestHTTPServer
        let client: APIClient

        init() throws {
            server = try TestHTTPServer(responder: api.respond)
            client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
        }

        static func makeAPI() -> TestResourceAPI {
            TestResourceAPI(
                collection: "notes", resources: [Note(id: "n1", text: "Milk")], naming: { "t-\($0)" },
                accepting: { body in
                    guard var note = try? APIClient.decode(Note.self, from: body) else { return nil }
                    note.length = note.text.count
                    return try? APIClient.encode(note)
                })
        }

        func create(_ text: String, key: String = UUID().uuidString) -> Promise<Note> {
            client.post("notes", body: Note(text: text), as: Note.self, headers: ["Idempotency-Key": key])
        }
    }

    @Test("a create is named by `naming` and kept as `accepting` makes it; a body it refuses gets 400")
    func namingAndAccepting() async throws {
        // Given
        let subject = try Subject()
        defer { subject.server.stop() }

        // When
        let created = await PromiseExpectations.value(of: subject.create("Eggs"))
        let refused = await PromiseExpectations.error(
            of: subject.client.post("notes", body: ["title": "no text"], as: Note.self))

        // Then
        #expect(created == Note(id: "t-1", text: "Eggs", length: 4, version: "1"))
        #expect(
            (refused as? APIError).map { if case .httpStatus(400, _) = $0 { true } else { false } } == true)
        #expect(subject.api.ids == ["n1", "t-1"])
        #expect(subject.api.resources(as: Note.self).map(\.text) == ["Milk", "Eggs"])
    }

    @Test("a request target's query is read field by field: percent-decoded, a field without a value empty")
    func queryFields() {
        // When
        let (path, query) = TestResourceAPI.split("/notes?since=rev%2D1&flag&empty=")

        // Then
        #expect(path == "/notes")
        #expect(query == ["since": "rev-1", "flag": "", "empty": ""])
    }

    @Test("If-Match names the version, strong or weak (`W/`); another version is refused with 412")
    func ifMatchStrongOrWeak() async throws {
        // Given
        let subject = try Subject()
        defer { subject.server.stop() }
        func put(_ text: String, ifMatch tag: String) -> Promise<Note> {
            subject.client.put(
                "notes/n1", body: Note(id: "n1", text: text), as: Note.self, headers: ["If-Match": tag])
        }

        // When
        let weak = await PromiseExpectations.value(of: put("Oat milk", ifMatch: #"W/"1""#))
        let stale = await PromiseExpectations.error(of: put("Soy milk", ifMatch: #""1""#))

        // Then
        #expect(weak?.version == "2")
        #expect(
            (stale as? APIError).map { if case .httpStatus(412, _) = $0 { true } else { false } } == true)
        #expect(subject.api.resources(as: Note.self).map(\.text) == ["Oat milk"])
    }

    @Test("requiring If-Match, a write without it is refused with 428 and not applied; with it, applied")
    func ifMatchRequired() async throws {
        // Given
        let subject = try Subject()
        defer { subject.server.stop() }
        subject.api.requiresIfMatch = true

        // When
        let bare = await PromiseExpectations.error(
            of: subject.client.put("notes/n1", body: Note(id: "n1", text: "Oat milk"), as: Note.self))
        let conditional = await PromiseExpectations.value(
            of: subject.client.put(
                "notes/n1", body: Note(id: "n1", text: "Soy milk"), as: Note.self,
                headers: ["If-Match": #""1""#]))

        // Then
        #expect(
            (bare as? APIError).map { if case .httpStatus(428, _) = $0 { true } else { false } } == true)
        #expect(conditional?.version == "2")
        #expect(subject.api.resources(as: Note.self).map(\.text) == ["Soy milk"])
    }

    @Test("an edit through the model goes through `accepting` and moves the version on")
    func editThroughTheModel() {
        // Given
        let api = Subject.makeAPI()
        // When
        api.edit("n1", as: Note.self) { $0.text = "Oat milk" }
        // Then
        #expect(api.resources(as: Note.self) == [Note(id: "n1", text: "Oat milk", length: 8, version: "2")])
    }

    @Test("a refused request is answered as told and not applied, until it is allowed")
    func refuseThenAllow() async throws {
        // Given
        let subject = try Subject()
        defer { subject.server.stop() }
        subject.api.refuse("POST /notes", status: 409, body: #"{"error": "no"}"#)
        subject.api.refuse(matching: { $0.method == "PUT" }, status: 500, body: "{}")

        // When
        let refused = await PromiseExpectations.error(of: subject.create("Eggs"))
        let failed = await PromiseExpectations.error(
            of: subject.client.put("notes/n1", body: Note(text: "x"), as: Note.self))
        subject.api.allow("POST /notes")
        let created = await PromiseExpectations.value(of: subject.create("Eggs"))

        // Then
        #expect(refused as? APIError == .httpStatus(409, body: #"{"error": "no"}"#))
        #expect(failed as? APIError == .httpStatus(500, body: "{}"))
        #expect(created?.id == "t-1")
        #expect(subject.api.applied == ["POST /notes"])
    }

    @Test("a garbled answer and a lost one are applied; the repeat under the same key is not applied again")
    func garbledAndLostAnswers() async throws {
        // Given
        let subject = try Subject()
        defer { subject.server.stop() }
        subject.api.garble("PUT /notes/n1")
        subject.api.loseAnswer(to: "POST /notes", with: .closeWithoutAnswer)

        // When
        let garbled = await PromiseExpectations.error(
            of: subject.client.put("notes/n1", body: Note(text: "Oat milk"), as: Note.self))
        let lost = await PromiseExpectations.error(of: subject.create("Eggs", key: "k1"))
        let repeated = await PromiseExpectations.value(of: subject.create("Eggs", key: "k1"))
        let next = await PromiseExpectations.value(of: subject.create("Tea", key: "k2"))

        // Then
        #expect(garbled is APIError)
        #expect(lost != nil)
        #expect(repeated?.id == "t-1")
        #expect(next?.id == "t-2", "only the next answer is lost")
        #expect(
            subject.api.writes.map(\.description) == ["PUT /notes/n1 -", "POST /notes k1", "POST /notes k2"])
        #expect(subject.api.field("text", of: "n1") == "Oat milk")
    }

    @Test("down, every request is answered 503 and nothing applied; up again, requests are applied")
    func downThenUp() async throws {
        // Given
        let subject = try Subject()
        defer { subject.server.stop() }
        subject.api.isDown = true

        // When
        let down = await PromiseExpectations.error(of: subject.create("Eggs"))
        subject.api.isDown = false
        let up = await PromiseExpectations.value(of: subject.create("Eggs"))

        // Then
        #expect((down as? APIError).map { if case .httpStatus(503, _) = $0 { true } else { false } } == true)
        #expect(up?.id == "t-1")
        #expect(subject.api.applied == ["POST /notes"])
    }

    @Test(
        "unreachable, every connection closes unanswered, an offline failure, nothing applied; reached again, requests are applied"
    )
    func unreachableThenReached() async throws {
        // Given
        let subject = try Subject()
        defer { subject.server.stop() }
        subject.api.isUnreachable = true

        // When
        let unreached = await PromiseExpectations.error(of: subject.create("Eggs"))
        subject.api.isUnreachable = false
        let reached = await PromiseExpectations.value(of: subject.create("Eggs"))

        // Then
        #expect(unreached.map { FailureClass($0).kind } == .offline)
        #expect(reached?.id == "t-1")
        #expect(subject.api.applied == ["POST /notes"])
    }

    @Test("flapping, of every four requests the first gets 503 unapplied and the third is applied and reset")
    func flapping() async throws {
        // Given
        let subject = try Subject()
        defer { subject.server.stop() }
        subject.api.flap(true)

        // When
        var outcomes: [Bool] = []
        for index in 1...4 {
            let answered = subject.create("n\(index)").map { _ in true }.recover { _ in Promise.value(false) }
            outcomes.append(await PromiseExpectations.value(of: answered) == true)
        }

        // Then
        #expect(outcomes == [false, true, false, true])
        #expect(subject.api.resources(as: Note.self).map(\.text) == ["Milk", "n2", "n3", "n4"])
    }

    @Test("writes applied without If-Match are counted; creates, conditional and refused writes are not")
    func unconditionalWritesAreCounted() {
        // Given
        let api = Subject.makeAPI()
        func request(_ method: String, _ path: String, _ body: String, _ headers: [String: String] = [:])
            -> Int
        {
            api.handle(
                TestHTTPServer.Request(method: method, path: path, body: Data(body.utf8), headers: headers)
            ).status
        }

        // When: a create, a conditional update, a stale one, then an update and a delete without
        let statuses = [
            request("POST", "/notes", #"{"text":"Tea"}"#),
            request("PUT", "/notes/n1", #"{"id":"n1","text":"Oat milk"}"#, ["if-match": #""1""#]),
            request("PUT", "/notes/n1", #"{"id":"n1","text":"Soy milk"}"#, ["if-match": #""1""#]),
            request("PUT", "/notes/n1", #"{"id":"n1","text":"Rice milk"}"#),
            request("DELETE", "/notes/t-1", ""),
        ]

        // Then
        #expect(statuses == [201, 200, 412, 200, 204], "\(statuses)")
        #expect(api.unconditionalWritesApplied == 2)
    }

    @Test("a path outside the collection is 404 and applies nothing")
    func otherCollectionIsNotFound() {
        // Given
        let api = Subject.makeAPI()

        // When
        let listing = api.handle(TestHTTPServer.Request(method: "GET", path: "/tasks"))
        let create = api.handle(
            TestHTTPServer.Request(method: "POST", path: "/tasks", body: Data(#"{"text":"Tea"}"#.utf8)))

        // Then
        #expect(listing.status == 404 && create.status == 404)
        #expect(api.resources(as: Note.self).map(\.text) == ["Milk"])
    }

    @Test("an update naming a resource the API does not hold is refused with 400 and not applied")
    func updateNamingAnUnknownResourceIsRefused() {
        // Given: notes that name another note as their parent
        let api = Subject.makeAPI()
        api.requiring("parent", in: api)
        func update(_ text: String, parent: String) -> (status: Int, body: String) {
            let body = #"{"id":"n1","text":"\#(text)","parent":"\#(parent)"}"#
            return api.handle(TestHTTPServer.Request(method: "PUT", path: "/notes/n1", body: Data(body.utf8)))
        }

        // When
        let unknown = update("Oat milk", parent: "n9")
        let known = update("Soy milk", parent: "n1")

        // Then
        #expect(unknown.status == 400 && unknown.body.contains("unknown parent n9"), "\(unknown)")
        #expect(known.status == 200)
        #expect(api.resources(as: Note.self).map(\.text) == ["Soy milk"])
    }

    @Test(
        "the feed: since the current token, nothing; since an older one, its changes; expired, 410 but for the current"
    )
    func feedSinceTokens() {
        // Given: the notes listed (their token), then one edited
        let api = Subject.makeAPI()
        guard
            case .status(_, _, _, let headers) = api.respond(
                TestHTTPServer.Request(method: "GET", path: "/notes")),
            let listed = headers["Sync-Token"]
        else {
            Issue.record("no Sync-Token on the listing")
            return
        }
        func since(_ token: String) -> (status: Int, body: String) {
            api.handle(TestHTTPServer.Request(method: "GET", path: "/notes?since=\(token)"))
        }
        let unchanged = since(listed)
        _ = api.handle(
            TestHTTPServer.Request(
                method: "PUT", path: "/notes/n1", body: Data(#"{"id":"n1","text":"Oat milk"}"#.utf8)))

        // When
        let changed = since(listed)
        api.expireTokens()
        let expired = since(listed)
        let current = (changed.body.range(of: #""next":""#)).map {
            changed.body[$0.upperBound...].prefix { $0 != "\"" }
        }

        // Then
        #expect(unchanged.status == 200 && unchanged.body.contains(#""changes":[]"#), "\(unchanged)")
        #expect(changed.status == 200 && changed.body.contains("Oat milk"), "\(changed)")
        #expect(expired.status == 410)
        #expect(since(String(current ?? "")).status == 200, "\(String(describing: current))")
    }
}
