import Foundation
import OrdersTesting
import Testing

/// What the orders store does with answers that are not a clean yes or no: a create applied but
/// answered unreadably, a create the shop keeps failing.
@Suite("Orders: delivery faults")
struct OrdersDeliveryFaultsTests {
    @Test("a create the shop applied but answered unreadably is delivered, not refused, and listed once")
    func unreadableAnswerToCreate() async throws {
        // Given: an order created offline; the shop will make it and answer nonsense
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        let created = try #require(
            await PromiseExpectations.value(
                of: device.offline.createOrder(validOrder(email: "eve@example.com"))))
        device.shop.garble("POST /orders")

        // When
        let report = await PromiseExpectations.value(of: device.online.sync())
        let listed = await device.listing(device.online)

        // Then
        #expect(report?.sent.map(\.localID) == [created.id ?? ""])
        #expect(report?.refused.isEmpty == true)
        #expect(device.shop.applied.count == 1)
        #expect(await PromiseExpectations.value(of: device.online.syncStatus()) == .empty)
        let eves = listed.values.filter { $0.email == "eve@example.com" }
        #expect(eves.count == 1)
        #expect(eves.first?.id?.hasPrefix("srv-") == true)
    }

    @Test(
        "a create the shop fails every time is stuck after five syncs: the other orders go, and it can be discarded"
    )
    func createFailingForever() async throws {
        // Given: two orders created offline, the first always answered 500
        let device = try DeviceAndShop()
        let failing = try #require(
            await PromiseExpectations.value(
                of: device.offline.createOrder(validOrder(email: "one@example.com"))))
        _ = await PromiseExpectations.value(
            of: device.offline.createOrder(validOrder(email: "two@example.com")))
        device.shop.refuse(
            matching: { String(decoding: $0.body, as: UTF8.self).contains("one@example.com") }, status: 500,
            body: #"{"error": "boom"}"#)

        // When: syncing as the waits allow
        var reports: [OutboxSyncReport] = []
        for _ in 0..<5 {
            reports += [await PromiseExpectations.value(of: device.online.sync())].compactMap { $0 }
            device.clock.advance(300)
        }

        // Then
        #expect(reports.last?.stuck.map(\.localID) == [failing.id ?? ""])
        let emails = device.shop.storedOrders.map(\.email)
        #expect(emails.contains("two@example.com") && !emails.contains("one@example.com"))
        let status = await PromiseExpectations.value(of: device.online.syncStatus())
        #expect(status?.stuck == 1 && status?.waiting == 0)
        guard case .stuck? = status?.state(of: failing.id ?? "") else {
            Issue.record("not stuck: \(String(describing: status))")
            return
        }

        // When: discarded
        let dropped = await PromiseExpectations.value(of: device.online.discard(id: failing.id ?? ""))

        // Then
        #expect(dropped?.count == 1)
        let listed = await device.listing(device.online)
        #expect(listed[failing.id ?? ""] == nil && listed.values.contains { $0.email == "two@example.com" })
    }
}

/// A full disk while saving here is said as the listing says it: the file and the cause.
@Suite("Orders: storage faults")
struct OrdersStorageFaultsTests {
    @Test("an order saved offline on a full disk is refused with the file and 'the disk is full'")
    func fullDiskWhileSavingOffline() async throws {
        // Given: a file that may not grow by a page
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        _ = await PromiseExpectations.value(
            of: device.database.read { connection in
                guard case .integer(let pages) = try connection.scalar("PRAGMA page_count") else { return }
                // sql-constant: PRAGMA takes no bound parameters; the count is SQLite's own integer.
                _ = try connection.query("PRAGMA max_page_count = \(pages)")
            })
        let big = validOrder(
            items: (0..<200).map {
                OrderItem(name: String(repeating: "x", count: 400) + "\($0)", quantity: 1, unitPrice: 1)
            })

        // When
        let error = await PromiseExpectations.error(of: device.offline.createOrder(big))

        // Then
        let message = (error as? OrdersStoreError)?.userMessage ?? "\(String(describing: error))"
        #expect(message.contains("the disk is full"), "\(message)")
        #expect(message.contains(device.database.path), "\(message)")
    }
}
