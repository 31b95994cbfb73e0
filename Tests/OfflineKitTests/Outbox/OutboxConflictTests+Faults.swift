import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// A conflict whose outcome cannot be written: the sync fails with the database's error rather
/// than report what it did not keep (`OutboxReplay+Answers.swift`). A trigger makes the write fail,
/// as a full disk would, on the real path.
extension OutboxConflictTests {
    /// A device whose database refuses the `UPDATE`s of `outbox` that `condition` picks, on an API
    /// that answers as `respond` does (the test's API by default).
    func refusing(
        _ condition: String, respond: (@Sendable (TestHTTPServer.Request) -> TestHTTPServer.Reply)? = nil
    ) async throws -> (TestHTTPServer, OutboxDevice) {
        let server = try TestHTTPServer(responder: respond ?? api.respond)
        let phone = try OutboxDevice(folder, "phone", server)
        await phone.pull()
        _ = await PromiseExpectations.value(
            of: phone.database.write { connection in
                try connection.execute(
                    """
                    CREATE TRIGGER refuse BEFORE UPDATE ON outbox WHEN \(condition)
                    BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
                    """)
            })
        return (server, phone)
    }

    @Test("a conflict that cannot be held fails the sync: nothing reported as held that was not")
    func unheldConflictFails() async throws {
        // Given: the same field changed on both sides; holding a conflict fails
        let (server, phone) = try await refusing("NEW.conflict != 0")
        defer { server.stop() }
        await phone.edit("n1", ["text": "eggs"])
        api.edit("n1", ["text": "bread"])

        // When
        let error = await PromiseExpectations.error(
            of: phone.outbox.sync(with: phone.client) { _, _, _ in nil })

        // Then
        #expect("\(error.map(String.init(describing:)) ?? "none")".contains("full"))
    }

    @Test("a merge that cannot be written fails the sync: the change is not sent again unmerged")
    func unwrittenMergeFails() async throws {
        // Given: different fields changed on both sides; writing the merge fails
        let (server, phone) = try await refusing("NEW.base IS NOT OLD.base")
        defer { server.stop() }
        await phone.edit("n1", ["text": "eggs"])
        api.edit("n1", ["title": "Groceries"])

        // When
        let error = await PromiseExpectations.error(
            of: phone.outbox.sync(with: phone.client) { _, _, _ in nil })

        // Then
        #expect("\(error.map(String.init(describing:)) ?? "none")".contains("full"))
        #expect(api.field("text", of: "n1") == "milk")
    }

    @Test(
        "a wait the API asked for that cannot be written fails the sync: the change does not go again at once"
    )
    func unwrittenWaitFails() async throws {
        // Given: a change, an API that asks for two minutes' wait, and writing the wait fails
        let (server, phone) = try await refusing("NEW.not_before IS NOT OLD.not_before") { [api] request in
            request.method == "PUT"
                ? .status(503, body: "{}", headers: ["Retry-After": "120"]) : api.respond(request)
        }
        defer { server.stop() }
        await phone.edit("n1", ["text": "eggs"])

        // When
        let error = await PromiseExpectations.error(
            of: phone.outbox.sync(with: phone.client) { _, _, _ in nil })

        // Then
        #expect("\(error.map(String.init(describing:)) ?? "none")".contains("full"))
    }

    @Test(
        "a failure or a refusal that cannot be written fails the sync: nothing reported as counted or refused",
        arguments: [
            ("NEW.failures != OLD.failures", 503),
            ("NEW.refusal IS NOT OLD.refusal", 422),
        ])
    func unwrittenFailureFails(condition: String, status: Int) async throws {
        // Given: a change, an API that answers `status`, and writing what it said fails
        let (server, phone) = try await refusing(condition) { [api] request in
            request.method == "PUT" ? .status(status, body: #"{"error": "no"}"#) : api.respond(request)
        }
        defer { server.stop() }
        await phone.edit("n1", ["text": "eggs"])

        // When
        let error = await PromiseExpectations.error(
            of: phone.outbox.sync(with: phone.client) { _, _, _ in nil })

        // Then
        #expect("\(error.map(String.init(describing:)) ?? "none")".contains("full"))
    }

    @Test("a change that never left whose mark cannot be written fails the sync: it is not taken as unsent")
    func unwrittenNeverSentFails() async throws {
        // Given: a change, an API that can no longer be reached (no connection is made), and
        // writing that the change never left fails
        let (server, phone) = try await refusing("NEW.attempted = 0 AND OLD.attempted != 0")
        await phone.edit("n1", ["text": "eggs"])
        server.stop()

        // When
        let error = await PromiseExpectations.error(
            of: phone.outbox.sync(with: phone.client) { _, _, _ in nil })

        // Then
        #expect("\(error.map(String.init(describing:)) ?? "none")".contains("full"))
    }
}
