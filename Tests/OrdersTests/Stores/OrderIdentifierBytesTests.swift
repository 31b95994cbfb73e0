import Foundation
import OrdersTesting
import Testing

/// Identifiers are compared as bytes wherever one is a key: two that differ only in Unicode
/// normalisation (`café` composed and decomposed) are two orders, online and offline, as they are
/// to the API and to SQLite (Swift's `String ==` would make them one).
@Suite("Orders: identifiers compared as bytes")
struct OrderIdentifierBytesTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    static func order(_ id: String, email: String) -> Order {
        Order(
            id: id, date: Date(timeIntervalSince1970: 1_790_000_000), email: email, firstName: "Amy",
            lastName: "Apple", items: [OrderItem(name: email, quantity: 1, unitPrice: 1)], total: 1)
    }

    @Test("two ids equal under normalisation are two orders in the offline copy, each with its items")
    func normalisationTwinsStayTwo() async throws {
        // Given: the shop has both
        let device = try DeviceAndShop(
            orders: [
                Self.order(Self.composed, email: "one@example.com"),
                Self.order(Self.decomposed, email: "two@example.com"),
            ])
        let online = await PromiseExpectations.value(of: device.online.fetchOrders()) ?? []

        // When
        let offline = await PromiseExpectations.value(of: device.offline.fetchOrders()) ?? []

        // Then
        #expect(online.count == 2)
        #expect(offline.count == 2)
        let byEmail = offline.map { ($0.email, Array(($0.id ?? "").utf8), $0.items.map(\.name)) }
        #expect(
            byEmail.contains {
                $0.0 == "one@example.com" && $0.1 == Array(Self.composed.utf8) && $0.2 == ["one@example.com"]
            })
        #expect(
            byEmail.contains {
                $0.0 == "two@example.com" && $0.1 == Array(Self.decomposed.utf8)
                    && $0.2 == ["two@example.com"]
            })
    }
}
