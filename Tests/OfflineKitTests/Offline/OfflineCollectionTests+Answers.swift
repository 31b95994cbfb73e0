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
        let (_, online) = try tasks(server, online: true)

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
}
