import Foundation
import OrdersTesting
import Services
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

    @Test("a page's orders and its items' identifiers are read in order from an index, nothing sorted")
    func pageReadsTheListedIndexInOrder() async throws {
        // Given
        let device = try DeviceAndShop()
        defer { device.server.stop() }
        _ = await PromiseExpectations.value(of: device.online.fetchOrders())
        let parameters: [SQLValue] = [.real(.infinity), .text(""), SQLValue(11)]

        // When
        let plans = await PromiseExpectations.value(
            of: device.database.read { connection in
                try [OrderRows.pageOrders, OrderRows.pageItems].map { sql in
                    try connection.query("EXPLAIN QUERY PLAN " + sql, parameters).compactMap { row in
                        try? row.string("detail")
                    }
                }
            })

        // Then
        for details in plans ?? [] {
            #expect(details.contains { $0.contains("orders_listed") }, "\(details)")
            #expect(!details.contains { $0.contains("TEMP B-TREE") }, "\(details)")
        }
        #expect(plans?.count == 2)
    }
}
