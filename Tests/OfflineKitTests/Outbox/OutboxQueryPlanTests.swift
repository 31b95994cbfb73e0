import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// How SQLite runs the outbox's statement that a sync runs once per change.
@Suite("Outbox: the query plan of a sync")
struct OutboxQueryPlanTests {
    @Test("the next entry to send is one seek in the feature's index, never a sort of all its entries")
    func nextEntryIsASeek() async throws {
        // Given: an outbox with its schema in place, and no statistics (`ANALYZE` never runs)
        let (database, outbox) = try OutboxTests.notes()
        _ = await PromiseExpectations.value(of: outbox.ready)

        // When: SQLite plans the statement that finds the next entry after a sequence
        let plan = await PromiseExpectations.value(
            of: database.read { connection in
                try connection.query(
                    "EXPLAIN QUERY PLAN " + OutboxTable.nextQuery,
                    [.text("notes"), .integer(0), .text("amy")]
                ) { try $0.string("detail") }
            })

        // Then: it searches `outbox_by_feature` by feature and sequence, and sorts nothing
        let steps = try #require(plan)
        #expect(steps.contains { $0.contains("outbox_by_feature (feature=? AND sequence>?)") }, "\(steps)")
        #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(steps)")
    }
}
