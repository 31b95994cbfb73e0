import Foundation
import PromiseMVPTesting
import Testing

@testable import Services

/// The table every collection made with a name shares: the lookups each snapshot and page makes
/// read an index, not the whole collection.
@Suite("JSONOfflineStorage")
struct JSONOfflineStorageTests {
    @Test("a collection's resources changed here are found through their partial index")
    func changedHereUsesItsIndex() async throws {
        // Given
        let database = try Database.inMemory(
            migrations: JSONOfflineStorage<OfflineCollectionTests.Task>.migrations)

        // When
        let plan = await PromiseExpectations.value(
            of: database.read {
                try $0.query(
                    "EXPLAIN QUERY PLAN " + JSONOfflineStorage<OfflineCollectionTests.Task>.changedHere,
                    [.text("tasks")])
            })

        // Then
        let details = plan?.compactMap { row in try? row.string("detail") } ?? []
        #expect(details.contains { $0.contains("offline_changed_here") }, "\(details)")
    }
}
