import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// Behaviours of `OfflineCollection` checked on one path only before (#87).
extension OfflineCollectionTests {
    @Test("update(id:) of the id printed before a sync changes the task under the API's id")
    func updateByReplacedID() async throws {
        // Given: a task created offline, then sent (the API names it tasks-1)
        let api = TestResourceAPI(collection: "tasks")
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (_, offline) = try tasks(server)
        let local = try #require(await PromiseExpectations.value(of: offline.create(Task(title: "Milk")))?.id)
        let (_, online) = try tasks(server, online: true)
        _ = await PromiseExpectations.value(of: online.sync())

        // When: edited by the id it had here
        let updated = await PromiseExpectations.value(of: online.update(id: local) { $0.note = "2 l" })

        // Then
        #expect(updated?.id == "tasks-1")
        #expect(api.field("note", of: "tasks-1") == "2 l")
        #expect(api.ids == ["tasks-1"])
    }

    @Test(
        "the first listing offline is this device's tasks (none, or those made here) under every policy that reads the copy",
        arguments: [CachePolicy.networkFirst, .cacheFirst(maxAge: 60), .cacheThenNetwork], [false, true])
    func firstOfflineListingUnderEveryPolicy(policy: CachePolicy, madeOne: Bool) async throws {
        // Given: a device that never listed, with or without a task made offline
        let server = try TestHTTPServer(responder: TestResourceAPI(collection: "tasks").respond)
        defer { server.stop() }
        let (_, offline) = try tasks(server)
        if madeOne { _ = await PromiseExpectations.value(of: offline.create(Task(title: "Milk"))) }

        // When
        let listed = await PromiseExpectations.value(of: offline.list(policy: policy))

        // Then: a list the user can add to, never "no data"
        #expect(listed?.value.values.map(\.title) == (madeOne ? ["Milk"] : []))
    }
}
