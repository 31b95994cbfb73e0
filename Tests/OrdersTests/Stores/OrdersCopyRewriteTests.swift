import Foundation
import OrdersTesting
import Testing

@Suite("The offline copy rewritten only when the listing changed")
struct OrdersCopyRewriteTests {
    let folder = TemporaryFolder("OrdersTests")

    /// Two orders as the API lists them: identifiers, totals, versions and full card numbers.
    func listing() -> [Order] {
        (1...2).map { index in
            var order = validOrder()
            order.id = "srv-\(index)"
            order.total = order.computedTotal
            order.version = "1"
            return order
        }
    }

    /// Makes the file count every row written to or deleted from `orders` and `order_items`, in a
    /// table of its own, by triggers.
    func countWrites(_ database: Database) async {
        _ = await PromiseExpectations.value(
            of: database.write { connection in
                try connection.execute("CREATE TABLE row_writes (row_table TEXT NOT NULL)")
                for table in ["orders", "order_items"] {
                    for event in ["INSERT", "UPDATE", "DELETE"] {
                        try connection.execute(
                            """
                            CREATE TRIGGER count_\(table)_\(event) AFTER \(event) ON \(table)
                            BEGIN INSERT INTO row_writes VALUES ('\(table)'); END
                            """)
                    }
                }
            })
    }

    /// How many rows were written or deleted since ``countWrites(_:)``.
    func writes(_ database: Database) async -> Int? {
        await PromiseExpectations.value(
            of: database.read {
                try $0.query("SELECT row_table FROM row_writes") { try $0.string("row_table") }.count
            })
    }

    @Test("a listing equal to the copy keeps every row and only moves the time it was confirmed")
    func equalListingRewritesNothing() async throws {
        // Given a copy saved from a listing
        let database = try Database(at: folder.file("orders.sqlite"))
        let store = OrdersSQLiteStore(database: database)
        let first = Date(timeIntervalSince1970: 1_000)
        let later = Date(timeIntervalSince1970: 2_000)
        _ = await PromiseExpectations.value(of: store.save(listing(), at: first))
        await countWrites(database)

        // When the same listing arrives again, in another order
        _ = await PromiseExpectations.value(of: store.save(listing().reversed(), at: later))

        // Then no order row was written or deleted, and the copy is known to be as fresh as the listing
        #expect(await writes(database) == 0)
        let loaded = await PromiseExpectations.value(of: store.load())
        #expect(loaded??.savedAt == later)
        #expect(loaded??.value.compactMap(\.id).sorted() == ["srv-1", "srv-2"])
    }

    @Test("a listing that differs in one field replaces the copy")
    func changedListingReplacesCopy() async throws {
        // Given a copy saved from a listing
        let database = try Database(at: folder.file("orders.sqlite"))
        let store = OrdersSQLiteStore(database: database)
        _ = await PromiseExpectations.value(of: store.save(listing(), at: Date()))
        await countWrites(database)

        // When one order's version moved on in the API
        var changed = listing()
        changed[1].version = "2"
        _ = await PromiseExpectations.value(of: store.save(changed, at: Date()))

        // Then the copy was written again, with the new version
        #expect(await writes(database) ?? 0 > 0)
        let orders = await PromiseExpectations.value(of: store.fetchOrders())
        #expect(orders?.first { $0.id == "srv-2" }?.version == "2")
    }

    @Test("with versions, only the orders whose version moved, came or went are written")
    func versionedListingWritesOnlyWhatMoved() async throws {
        // Given a copy of ten orders, each with one item, saved from a versioned listing
        let database = try Database(at: folder.file("orders.sqlite"))
        let store = OrdersSQLiteStore(database: database)
        let ten = (1...10).map { index in
            var order = listing()[0]
            order.id = "srv-\(index)"
            order.items = [OrderItem(name: "Item \(index)", quantity: 1, unitPrice: 1)]
            return order
        }
        _ = await PromiseExpectations.value(of: store.save(ten, at: Date()))
        await countWrites(database)

        // When one order's version moves on, one goes and one comes
        var next = Array(ten.dropLast())
        next[0].version = "2"
        next[0].email = "moved@example.com"
        var came = ten[0]
        came.id = "srv-11"
        next.append(came)
        _ = await PromiseExpectations.value(of: store.save(next, at: Date()))

        // Then: the moved order deleted and written with its item (4 rows), the gone one deleted
        // with its item (2), the new one written with its item (2); the other eight untouched
        #expect(await writes(database) == 8)
        let orders = await PromiseExpectations.value(of: store.fetchOrders())
        #expect(orders?.count == 10)
        #expect(orders?.first { $0.id == "srv-1" }?.email == "moved@example.com")
        #expect(orders?.contains { $0.id == "srv-10" } == false)
        #expect(orders?.first { $0.id == "srv-11" }?.items.map(\.name) == ["Item 1"])
    }

    @Test(
        "without versions, a listing is compared field by field: one changed field replaces the copy, none keeps it"
    )
    func unversionedListingComparedByFields() async throws {
        // Given a copy saved from a listing whose orders carry no version
        let database = try Database(at: folder.file("orders.sqlite"))
        let store = OrdersSQLiteStore(database: database)
        let unversioned = listing().map { order in
            var order = order
            order.version = nil
            return order
        }
        _ = await PromiseExpectations.value(of: store.save(unversioned, at: Date()))
        await countWrites(database)

        // When the same listing comes, then one with an email changed
        _ = await PromiseExpectations.value(of: store.save(unversioned, at: Date()))
        let unchangedWrites = await writes(database)
        var changed = unversioned
        changed[0].email = "changed@example.com"
        _ = await PromiseExpectations.value(of: store.save(changed, at: Date()))

        // Then
        #expect(unchangedWrites == 0)
        #expect(await writes(database) ?? 0 > 0)
        let orders = await PromiseExpectations.value(of: store.fetchOrders())
        #expect(orders?.first { $0.id == "srv-1" }?.email == "changed@example.com")
    }

    @Test("without versions, a listing that lacks an order of the copy (gone from the shop) replaces it")
    func unversionedListingWithAnOrderGone() async throws {
        // Given a copy saved from a listing of two orders that carry no version
        let store = OrdersSQLiteStore(database: try Database(at: folder.file("orders.sqlite")))
        let unversioned = listing().map { order in
            var order = order
            order.version = nil
            return order
        }
        _ = await PromiseExpectations.value(of: store.save(unversioned, at: Date()))

        // When the next listing has the first order alone, unchanged
        _ = await PromiseExpectations.value(of: store.save(Array(unversioned.prefix(1)), at: Date()))

        // Then
        let orders = await PromiseExpectations.value(of: store.fetchOrders())
        #expect(orders?.compactMap(\.id) == ["srv-1"])
    }

    @Test("with versions, the copy is compared by identifier and version: an order gone or added replaces it")
    func versionedListingComparedByIdentifiers() async throws {
        // Given a copy saved from a versioned listing
        let database = try Database(at: folder.file("orders.sqlite"))
        let store = OrdersSQLiteStore(database: database)
        _ = await PromiseExpectations.value(of: store.save(listing(), at: Date()))

        // When one order is gone and another came, at the same version
        var other = listing()
        other[1].id = "srv-3"
        _ = await PromiseExpectations.value(of: store.save(other, at: Date()))

        // Then
        let orders = await PromiseExpectations.value(of: store.fetchOrders())
        #expect(orders?.compactMap(\.id).sorted() == ["srv-1", "srv-3"])
    }
}
