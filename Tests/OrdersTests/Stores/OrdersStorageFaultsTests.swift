import Foundation
import OrdersTesting
import Testing

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
