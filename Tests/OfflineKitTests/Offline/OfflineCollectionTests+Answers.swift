import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// What the API answers a create with (`OfflineCollection+Delivered.swift`): JSON without a usable
/// id is the API's fault, counted; a page that is not JSON is not the API's, uncounted.
extension OfflineCollectionTests {
    @Test(
        "a create answered 201 with JSON but no usable id is a counted failure with the API's body, not resent at once",
        arguments: [#"{"title":"Noid"}"#, #"{"id":null,"title":"Noid"}"#, #"{"id":5,"title":"Noid"}"#])
    func createAnsweredWithoutIDIsAFailure(answer: String) async throws {
        // Given: a task created offline, and an API that takes creates but answers without an id
        let server = try TestHTTPServer { request in
            request.method == "POST" ? .status(201, body: answer) : .status(200, body: "[]")
        }
        defer { server.stop() }
        let (database, offline) = try tasks(server)
        _ = await PromiseExpectations.value(of: offline.create(Task(title: "Noid")))
        // A clock that stands still: the backoff after the failure has not passed at the second sync.
        let moment = Date()
        let online = OfflineCollection<Task>(
            database: database, collection: "tasks",
            client: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never), now: { moment })

        // When: synced twice in a row
        let first = await PromiseExpectations.value(of: online.sync())
        let second = await PromiseExpectations.value(of: online.sync())

        // Then: the first counts a failure whose reason carries the body; the second waits for the
        // backoff instead of sending the create again
        #expect(
            first?.sent.isEmpty == true && first?.stoppedBecause != .notTheAPI, "\(String(describing: first))"
        )
        #expect(second?.sent.isEmpty == true)
        #expect(server.requests.filter { $0.hasPrefix("POST") }.count == 1)
        let row = try #require(
            await PromiseExpectations.value(
                of: database.read { try $0.query("SELECT failures, last_error FROM outbox").first }) ?? nil)
        #expect(row["failures"] == .integer(1))
        guard case .text(let reason)? = row["last_error"] else {
            Issue.record("no reason kept: \(row)")
            return
        }
        #expect(reason.contains("without a usable") && reason.contains("Noid"), "\(reason)")
    }

    @Test("a create answered 200 with a page that is not JSON waits under its key, uncounted")
    func createAnsweredWithAPageWaitsUncounted() async throws {
        // Given: a task created offline, and a portal answering every request with a page
        let server = try TestHTTPServer { _ in .status(200, body: "sign in to the wifi") }
        defer { server.stop() }
        let (database, offline) = try tasks(server)
        _ = await PromiseExpectations.value(of: offline.create(Task(title: "Milk")))

        // When
        let report = await PromiseExpectations.value(of: try tasks(server, online: true).1.sync())

        // Then
        #expect(report?.stoppedBecause == .notTheAPI)
        let failures = await PromiseExpectations.value(
            of: database.read { try $0.scalar("SELECT failures FROM outbox") })
        #expect(failures == .integer(0))
    }

    @Test(
        "a create answered with the id of a resource the copy already holds is refused; nothing is replaced")
    func createAnsweredWithAnExistingIDIsRefused() async throws {
        // Given: a task listed from the API, and an API that gives every new task that same id
        let api = TestResourceAPI(
            collection: "tasks", resources: [Task(id: "t1", title: "Tea")], naming: { _ in "t1" })
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (_, online) = try tasks(server, online: true)
        _ = await PromiseExpectations.value(of: online.list())
        let (_, offline) = try tasks(server)
        let milk = try #require(await PromiseExpectations.value(of: offline.create(Task(title: "Milk"))))

        // When
        let report = await PromiseExpectations.value(of: online.sync())
        let copy = await PromiseExpectations.value(of: online.snapshot())

        // Then: refused with the reason; both tasks still here, each under its own id
        #expect(report?.refused.map(\.localID) == [milk.id ?? ""], "\(String(describing: report))")
        guard case .refused(let reason)? = report?.refused.first?.state else {
            Issue.record("not refused: \(String(describing: report))")
            return
        }
        #expect(reason.contains("t1") && reason.contains("already has"), "\(reason)")
        #expect(copy?.values.first { $0.id == "t1" }?.title == "Tea")
        #expect(copy?.values.first { $0.id == milk.id }?.title == "Milk")
    }

    @Test("two creates answered with one id: the second is refused, never merged into the first")
    func twoCreatesAnsweredWithOneIDAreNotMerged() async throws {
        // Given: two tasks created offline, and an API that names both "x1"
        let api = TestResourceAPI(collection: "tasks", naming: { _ in "x1" })
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (_, offline) = try tasks(server)
        _ = await PromiseExpectations.value(of: offline.create(Task(title: "Milk")))
        let (_, online) = try tasks(server, online: true)
        _ = await PromiseExpectations.value(of: online.sync())
        let bread = try #require(await PromiseExpectations.value(of: offline.create(Task(title: "Bread"))))

        // When
        let report = await PromiseExpectations.value(of: online.sync())
        let copy = await PromiseExpectations.value(of: online.snapshot())

        // Then
        #expect(report?.refused.map(\.localID) == [bread.id ?? ""], "\(String(describing: report))")
        #expect(Set(copy?.values.map(\.title) ?? []) == ["Milk", "Bread"])
    }

    @Test("a create whose answer was lost finds what it made in the copy: taken, shown once")
    func lostAnswerTakesTheListedRow() async throws {
        // Given: a create the API applied whose answer was lost, then a refresh that brought it
        let api = TestResourceAPI(collection: "tasks")
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (_, offline) = try tasks(server)
        _ = await PromiseExpectations.value(of: offline.create(Task(title: "Milk")))
        api.loseAnswer(to: "POST /tasks", with: .closeWithoutAnswer)
        let (_, online) = try tasks(server, online: true)
        _ = await PromiseExpectations.value(of: online.sync())
        _ = await PromiseExpectations.value(of: online.refresh())

        // When: the next sync replays the create under its key
        let report = await PromiseExpectations.value(of: online.sync())
        let copy = await PromiseExpectations.value(of: online.snapshot())

        // Then
        #expect(report?.sent.count == 1 && report?.refused.isEmpty == true, "\(String(describing: report))")
        #expect(copy?.values.map(\.title) == ["Milk"])
        #expect(api.applied == ["POST /tasks"])
    }

    @Test(
        "a create that met a refused connection never left: a later edit merges into it, one request",
        arguments: [true, false])
    func refusedConnectionLeavesTheCreateUnsent(createdOnline: Bool) async throws {
        // Given: an API whose port refuses connections
        let port = try TestHTTPServer.closedPort()
        let database = try Database(at: folder.file("tasks.sqlite"))
        let closed = try #require(URL(string: "http://127.0.0.1:\(port)/"))
        let online = OfflineCollection<Task>(
            database: database, collection: "tasks",
            client: APIClient(baseURL: closed, timeout: 30, retry: .never))
        let offline = OfflineCollection<Task>(
            database: database, collection: "tasks",
            client: APIClient(baseURL: closed, timeout: 30, retry: .never),
            reachability: Offline())

        // When: a task created online (queued when the connection is refused), or offline and
        // then synced against the refusing port; then edited offline
        let created = try #require(
            await PromiseExpectations.value(
                of: (createdOnline ? online : offline).create(Task(title: "Milk"))))
        if !createdOnline { _ = await PromiseExpectations.value(of: online.sync()) }
        _ = await PromiseExpectations.value(of: offline.update(id: created.id ?? "") { $0.note = "2 l" })

        // Then: one create waits, carrying the edit
        let waiting = await PromiseExpectations.value(of: online.outbox.entries()) ?? []
        #expect(waiting.map(\.method) == [.post], "\(waiting)")
        #expect(waiting.first?.body.map { String(decoding: $0, as: UTF8.self).contains("2 l") } == true)
    }

    @Test(
        "a lost answer is worded as one, not as offline, and a listing before the next sync shows the task once"
    )
    func lostAnswerIsWordedAndListedOnce() async throws {
        // Given: a task created offline; the API applies the create and the connection closes
        let api = TestResourceAPI(collection: "tasks")
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (_, offline) = try tasks(server)
        _ = await PromiseExpectations.value(of: offline.create(Task(title: "Shed")))
        api.loseAnswer(to: "POST /tasks", with: .closeWithoutAnswer)
        let (_, online) = try tasks(server, online: true)

        // When: synced, then listed
        let report = await PromiseExpectations.value(of: online.sync())
        let listed = await PromiseExpectations.value(of: online.list())

        // Then
        #expect(report?.stoppedBecause == .answerLost, "\(String(describing: report))")
        #expect(
            report?.stoppedBecause?.userMessage
                == "The server may have received the change; it will be checked at the next sync.")
        #expect(listed?.value.values.map(\.title) == ["Shed"])
        #expect(api.applied == ["POST /tasks"])
    }

    @Test("a create answered while an edit of it waits moves the row to the API's id with the edit, once")
    func createAnsweredBeforeItsEditMovesTheRow() async throws {
        // Given: a create the API applied whose answer was lost, an edit of it made after (so it
        // waits as a change of its own), and an API that refuses updates for now
        let api = TestResourceAPI(collection: "tasks")
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (_, offline) = try tasks(server)
        let milk = try #require(await PromiseExpectations.value(of: offline.create(Task(title: "Milk"))))
        let local = try #require(milk.id)
        api.loseAnswer(to: "POST /tasks", with: .closeWithoutAnswer)
        let (_, online) = try tasks(server, online: true)
        _ = await PromiseExpectations.value(of: online.sync())
        _ = await PromiseExpectations.value(of: offline.update(id: local) { $0.title = "Oat milk" })
        api.refuse(matching: { $0.method == "PUT" }, status: 503, body: "{}")

        // When: the create is replayed and answered; the edit fails
        _ = await PromiseExpectations.value(of: online.sync())
        let copy = await PromiseExpectations.value(of: online.snapshot())
        let current = await PromiseExpectations.value(of: online.currentID(of: local))

        // Then: one row, under the API's id, with the edit still waiting on it
        #expect(copy?.values.map(\.title) == ["Oat milk"], "\(String(describing: copy?.values))")
        #expect(copy?.values.map(\.id) == ["tasks-1"])
        #expect(current == "tasks-1")
        #expect(copy?.status.waiting == 1, "\(String(describing: copy?.status))")
        #expect(api.field("title", of: "tasks-1") == "Milk")
    }

    @Test("an edit answered without a body makes the row the API's: a later listing replaces it")
    func editAnsweredWithoutABodyIsTheAPIsCopy() async throws {
        // Given: a task listed, edited offline, and an API that answers updates 204 and whose
        // copy another device changes after
        let title = Locked("Tea")
        let server = try TestHTTPServer { request in
            if request.method == "PUT" { return .status(204, body: "") }
            return .status(200, body: #"[{"id":"t1","title":"\#(title.withLock { $0 })"}]"#)
        }
        defer { server.stop() }
        let (_, online) = try tasks(server, online: true)
        _ = await PromiseExpectations.value(of: online.refresh())
        let (_, offline) = try tasks(server)
        _ = await PromiseExpectations.value(of: offline.update(Task(id: "t1", title: "Green tea")))

        // When: the edit is sent, then the API's copy changes and is listed
        let report = await PromiseExpectations.value(of: online.sync())
        title.withLock { $0 = "Black tea" }
        _ = await PromiseExpectations.value(of: online.refresh())
        let copy = await PromiseExpectations.value(of: online.snapshot())

        // Then
        #expect(report?.sent.count == 1, "\(String(describing: report))")
        #expect(copy?.values.map(\.title) == ["Black tea"], "\(String(describing: copy?.values))")
    }

    @Test(
        "an edit answered with the task but no version is delivered when the task had none, else not the API's",
        arguments: [false, true])
    func editAnsweredWithoutAVersion(versioned: Bool) async throws {
        // Given: a task listed with a version or without, edited offline, and an API that answers
        // updates with the task and no version (as a portal's JSON might)
        let listed = versioned ? #"{"id":"t1","version":"1","title":"Tea"}"# : #"{"id":"t1","title":"Tea"}"#
        let server = try TestHTTPServer { request in
            if request.method == "PUT" { return .status(200, body: #"{"id":"t1","title":"Green tea"}"#) }
            return .status(200, body: "[\(listed)]")
        }
        defer { server.stop() }
        let (_, online) = try tasks(server, online: true)
        _ = await PromiseExpectations.value(of: online.refresh())
        let (_, offline) = try tasks(server)
        _ = await PromiseExpectations.value(of: offline.update(id: "t1") { $0.title = "Green tea" })

        // When
        let report = await PromiseExpectations.value(of: online.sync())

        // Then
        if versioned {
            #expect(
                report?.sent.isEmpty == true && report?.stoppedBecause == .notTheAPI,
                "\(String(describing: report))")
        } else {
            #expect(report?.sent.count == 1, "\(String(describing: report))")
        }
    }
}
