import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// What a sync costs the file, in write transactions counted by the connection
/// (`Connection.Work`): an entry is marked in one and completed in another, the claim is given up
/// in the last entry's own, and a sync that stops writes nothing more than what stopped it.
@Suite("Outbox: the writes of a sync")
struct OutboxWritesTests {
    /// Given: the notes `a` and `b` each edited once, and an API that answers `a`'s edit with
    /// `status` and `b`'s with `200`.
    static func twoEdits(firstAnswered status: Int) async throws -> (Database, Outbox, TestHTTPServer) {
        let (database, outbox) = try OutboxTests.notes()
        let server = try TestHTTPServer([
            "/notes/a": .status(status, body: "{}"), "/notes/b": .status(200, body: "{}"),
        ])
        await OutboxTests.write(database, outbox, .put, id: "a")
        await OutboxTests.write(database, outbox, .put, id: "b")
        return (database, outbox, server)
    }

    /// The write transactions `sync` of `outbox` ran, with its report.
    static func writes(
        of outbox: Outbox, in database: Database, _ server: TestHTTPServer
    ) async throws -> (writes: Int, report: OutboxSyncReport?) {
        let before = try #require(await PromiseExpectations.value(of: database.read { $0.work }))
        let client = APIClient(baseURL: server.baseURL, timeout: 30)
        let report = await PromiseExpectations.value(of: outbox.sync(with: client) { _, _, _ in nil })
        let after = try #require(await PromiseExpectations.value(of: database.read { $0.work }))
        return (after.since(before).writes, report)
    }

    @Test(
        "two changes sent cost three writes: the first's mark, each answer, the second marked with the first's"
    )
    func changesSentCostThreeWrites() async throws {
        // Given: an API that takes both edits
        let (database, outbox, server) = try await Self.twoEdits(firstAnswered: 200)
        defer { server.stop() }

        // When
        let (writes, report) = try await Self.writes(of: outbox, in: database, server)

        // Then: the claim given up and what waits counted in the last answer's transaction
        #expect(report?.sent.map(\.localID) == ["a", "b"])
        #expect(report?.waiting == 0)
        #expect(writes == 3, "\(writes) writes")
    }

    @Test("a sync its first change stops costs three writes: the mark, the failure, the claim given up")
    func stoppedSyncCostsThreeWrites() async throws {
        // Given: an API that is down
        let (database, outbox, server) = try await Self.twoEdits(firstAnswered: 503)
        defer { server.stop() }

        // When
        let (writes, report) = try await Self.writes(of: outbox, in: database, server)

        // Then: no transaction to look for more once the sync stopped
        #expect(report?.stoppedBecause == .httpStatus(503))
        #expect(report?.waiting == 2)
        #expect(writes == 3, "\(writes) writes")
        #expect(server.requests == ["PUT /notes/a HTTP/1.1"])
    }
}
