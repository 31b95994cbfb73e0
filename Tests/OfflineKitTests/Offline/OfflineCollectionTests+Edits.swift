import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// `update(id:_:)`: a change applied to the latest value, so quick edits never undo each other.
extension OfflineCollectionTests {
    @Test(
        "two quick edits, a rename then a note, both arrive: the second starts from the first",
        arguments: [true, false])
    func quickEditsKeepEachOther(online: Bool) async throws {
        // Given: a task listed from the API
        let api = TestResourceAPI(collection: "tasks", resources: [Task(id: "t1", title: "Milk")])
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (_, listing) = try tasks(server, online: true)
        _ = await PromiseExpectations.value(of: listing.list())
        let (_, tasks) = try tasks(server, online: online)

        // When: two edits started one right after the other, neither waited for
        let renamed = tasks.update(id: "t1") { $0.title = "Oat milk" }
        let noted = tasks.update(id: "t1") { $0.note = "2 l" }
        let first = await PromiseExpectations.value(of: renamed)
        let second = await PromiseExpectations.value(of: noted)
        if !online {
            _ = await PromiseExpectations.value(of: try self.tasks(server, online: true).1.sync())
        }

        // Then: the second kept the first; the API holds both
        #expect(first?.title == "Oat milk")
        #expect(second?.title == "Oat milk" && second?.note == "2 l")
        #expect(api.field("title", of: "t1") == "Oat milk")
        #expect(api.field("note", of: "t1") == "2 l")
    }

    @Test("offline, edits through two connections to the file (two processes) apply to the latest value")
    func editsFromTwoProcessesKeepEachOther() async throws {
        // Given: a task listed from the API; two offline collections on the same file
        let api = TestResourceAPI(collection: "tasks", resources: [Task(id: "t1", title: "Milk")])
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        _ = await PromiseExpectations.value(of: try tasks(server, online: true).1.list())
        let (_, here) = try tasks(server)
        let (_, there) = try tasks(server)

        // When: each edits a field at once
        let renamed = here.update(id: "t1") { $0.title = "Oat milk" }
        let noted = there.update(id: "t1") { $0.note = "2 l" }
        _ = await PromiseExpectations.value(of: renamed)
        _ = await PromiseExpectations.value(of: noted)
        let kept = await PromiseExpectations.value(of: here.fetch(id: "t1"))

        // Then: whichever queued second applied its change on top of the first
        #expect(kept?.title == "Oat milk" && kept?.note == "2 l")
    }

    @Test(
        "a task created offline and then edited offline is created without its local identifier in the body")
    func createdThenEditedOfflineLeavesWithoutLocalID() async throws {
        // Given: an API that refuses a body naming an identifier (it names resources itself)
        let bodies = Locked<[String]>([])
        let api = TestResourceAPI(
            collection: "tasks",
            accepting: { body in
                bodies.withLock { $0.append(String(decoding: body, as: UTF8.self)) }
                let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
                return object?["id"] == nil ? body : nil
            })
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (_, offline) = try tasks(server)
        let created = try #require(await PromiseExpectations.value(of: offline.create(Task(title: "Milk"))))

        // When: edited offline before it was sent, then synced
        _ = await PromiseExpectations.value(of: offline.update(id: created.id ?? "") { $0.note = "2 l" })
        let report = await PromiseExpectations.value(of: try tasks(server, online: true).1.sync())

        // Then: one create carrying the edit, and no local identifier anywhere in it
        #expect(report?.sent.count == 1 && report?.refused.isEmpty == true, "\(String(describing: report))")
        #expect(api.applied == ["POST /tasks"])
        #expect(bodies.withLock { $0.count == 1 && !$0[0].contains("local-") && $0[0].contains("2 l") })
    }

    @Test("an edit of a resource not kept here is noData")
    func editOfUnknownResource() async throws {
        // Given
        let server = try TestHTTPServer(responder: TestResourceAPI(collection: "tasks").respond)
        defer { server.stop() }
        let (_, tasks) = try tasks(server, online: true)

        // When
        let error = await PromiseExpectations.error(of: tasks.update(id: "nope") { $0.title = "x" })

        // Then
        #expect(ServiceRequestError(error ?? APIError.notHTTP) == .noData)
    }
}
