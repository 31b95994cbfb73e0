import Foundation
import OrdersTesting
import Testing

@testable import Orders

/// The lookups every page and snapshot makes read an index, not the whole copy.
@Suite("Orders: indexes")
struct OrdersIndexTests {
    @Test("the orders changed here are found through their partial index, not by reading every order")
    func changedHereUsesItsIndex() async throws {
        // Given
        let device = try DeviceAndShop()
        defer { device.server.stop() }
        _ = await PromiseExpectations.value(of: device.online.fetchOrders())

        // When
        let plan = await PromiseExpectations.value(
            of: device.database.read { try $0.query("EXPLAIN QUERY PLAN " + OrderRows.changedHere) })

        // Then
        let details = plan?.compactMap { row in try? row.string("detail") } ?? []
        #expect(details.contains { $0.contains("orders_changed_here") }, "\(details)")
    }
}
