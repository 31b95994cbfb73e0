import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// The API's identifier for a resource created here goes into the later changes' paths
/// and bodies (`OutboxTable.swift`, `rename`), escaped or not.
extension OutboxTests {
    @Test("a local id that needs escaping in a path is replaced there by the API's id once created")
    func escapedLocalIDIsRenamed() async throws {
        // Given: "new note" created, then changed by a path that escapes it, both waiting
        let (database, outbox) = try Self.notes()
        let putBodies = Locked<[String]>([])
        let server = try TestHTTPServer { request in
            if request.method == "PUT" {
                putBodies.withLock { $0.append(String(decoding: request.body, as: UTF8.self)) }
            }
            return request.method == "POST" ? .status(201, body: #"{"id": "n-9"}"#) : .status(200, body: "{}")
        }
        defer { server.stop() }
        _ = await PromiseExpectations.value(
            of: outbox.ready.then(on: .inline) {
                database.write { connection in
                    try outbox.record(
                        .post, "notes", json: ["text": "a"], localID: "new note", in: connection)
                    try outbox.record(
                        .put, "notes/" + APIClient.pathSegment("new note"),
                        json: ["id": "new note", "text": "b"],
                        localID: "new note", mayHaveArrived: true, in: connection)
                }
            })

        // When
        let report = await PromiseExpectations.value(
            of: outbox.sync(with: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)) {
                entry, answer, _ in
                entry.method == .post ? try APIClient.decode([String: String].self, from: answer)["id"] : nil
            })

        // Then
        #expect(report?.sent.count == 2)
        #expect(server.requests == ["POST /notes HTTP/1.1", "PUT /notes/n-9 HTTP/1.1"])
        // The update's body names the resource by the API's id too, never by the local one.
        #expect(putBodies.withLock { $0 } == [#"{"id":"n-9","text":"b"}"#])
    }
}
