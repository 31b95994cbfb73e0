import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// Pages ordered by a date field: in time order, fractions of a second included, the dates read
/// back as they were.
@Suite("OfflineCollection pages by date")
struct OfflineCollectionDatePagesTests {
    struct Errand: OfflineResource, Equatable {
        var id: String?
        var version: String?
        var due: Date
    }

    let folder = TemporaryFolder("OfflineCollectionDatePagesTests")

    @Test(
        "pages by a date come in time order, fractions included, and the dates read back equal",
        arguments: [OfflineOrder.ascending("due"), .descending("due")])
    func pagesByDateInTimeOrder(order: OfflineOrder) async throws {
        // Given: errands due within the same seconds, written with 0 to 9 fractional digits
        let (indexed, inMemory): (OfflineCollection<Errand>, OfflineCollection<Errand>) =
            try OfflineCollectionPagesTests.indexedAndInMemory(folder.file("errands.sqlite"), "errands")
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let offsets: [Double] = [0, 0.5, 0.55, 0.05, 1, 1.5, 0.555, 0.9, 1.25, 0.125, 2, 0.000_001]
        for offset in offsets.shuffled() {
            _ = await PromiseExpectations.value(of: indexed.create(Errand(due: start + offset)))
        }

        // When: read 5 at a time, through the index and sorted in memory
        let pages = await OfflineCollectionPagesTests.allPages(indexed, order, limit: 5)
        let sortedInMemory = await OfflineCollectionPagesTests.allPages(inMemory, order, limit: 5)

        // Then: in time order, each date as it was written
        let expected = offsets.sorted(by: order.descending ? (>) : (<)).map { start + $0 }
        #expect(pages.flatMap { $0 }.map(\.due) == expected)
        #expect(sortedInMemory == pages)
    }

    @Test("a date's sort key drops its Z alone; other text, or a Z that is not a date's, is kept")
    func sortKeyOfDates() {
        #expect(OfflineOrder.sortKey(of: "2027-01-15T08:00:00.55Z") == "2027-01-15T08:00:00.55")
        #expect(OfflineOrder.sortKey(of: "2027-01-15T08:00:00Z") == "2027-01-15T08:00:00")
        #expect(OfflineOrder.sortKey(of: "Zoe") == "Zoe")
        #expect(
            OfflineOrder.sortKey(of: "2027-01-15 was a Friday, said Z") == "2027-01-15 was a Friday, said Z")
    }
}
