import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// Pages ordered by a number field: whole and fractional values in numeric order, the same in
/// memory as through the index (SQLite's `json_extract` gives whole numbers as integers).
@Suite("OfflineCollection pages by number")
struct OfflineCollectionNumberPagesTests {
    struct Score: OfflineResource, Equatable {
        var id: String?
        var version: String?
        var points: Double
    }

    let folder = TemporaryFolder("OfflineCollectionNumberPagesTests")

    @Test(
        "pages by a number come in numeric order, fractions below one apart included, in memory as in SQL",
        arguments: [OfflineOrder.ascending("points"), .descending("points")])
    func pagesByNumberInNumericOrder(order: OfflineOrder) async throws {
        // Given: scores whole and fractional, nine of them within one whole number
        let (indexed, inMemory): (OfflineCollection<Score>, OfflineCollection<Score>) =
            try OfflineCollectionPagesTests.indexedAndInMemory(folder.file("scores.sqlite"), "scores")
        let points: [Double] = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 1, 2, 1.5, -3, 40]
        for value in points.shuffled() {
            _ = await PromiseExpectations.value(of: indexed.create(Score(points: value)))
        }

        // When: read 4 at a time, through the index and sorted in memory
        let pages = await OfflineCollectionPagesTests.allPages(indexed, order, limit: 4)
        let sortedInMemory = await OfflineCollectionPagesTests.allPages(inMemory, order, limit: 4)

        // Then
        #expect(pages.flatMap { $0 }.map(\.points) == points.sorted(by: order.descending ? (>) : (<)))
        #expect(sortedInMemory == pages)
    }
}
