public import Foundation
public import Promises

/// Orders kept in memory, seeded with two sample orders as in CleanStore: for tests, previews and
/// demos. Safe to use from any thread.
public final class OrdersMemStore: OrdersStore, @unchecked Sendable {
    // `@unchecked Sendable` is sound: `orders` is the only mutable state and it is only read or
    // written while holding `lock`.
    private let lock = NSLock()
    private var orders: [Order]
    private let makeID: @Sendable () -> String

    /// The two orders a new store holds.
    public static let sampleOrders: [Order] = [
        Order(
            id: "abc123", date: Date(timeIntervalSince1970: 1_183_075_200),
            email: "amy.apple@clean-swift.com",
            firstName: "Amy", lastName: "Apple", phone: "555-0100",
            billingAddress: Address(street1: "1 Infinite Loop", city: "Cupertino", state: "CA", zip: "95014"),
            shipmentAddress: Address(
                street1: "1 Infinite Loop", city: "Cupertino", state: "CA", zip: "95014"),
            paymentMethod: PaymentMethod(
                creditCardNumber: "4111 1111 1111 1111",
                expirationDate: Date(timeIntervalSince1970: 1_893_456_000),
                cvv: "123"),
            shipmentMethod: ShipmentMethod(speed: .standard),
            items: [OrderItem(name: "Apple", quantity: 1, unitPrice: Decimal(string: "1.23") ?? 0)],
            total: Decimal(string: "1.23") ?? 0),
        Order(
            id: "def456", date: Date(timeIntervalSince1970: 1_183_161_600),
            email: "bob.battery@clean-swift.com",
            firstName: "Bob", lastName: "Battery", phone: "555-0101",
            billingAddress: Address(street1: "1 Battery Park", city: "New York", state: "NY", zip: "10004"),
            shipmentAddress: Address(street1: "1 Battery Park", city: "New York", state: "NY", zip: "10004"),
            paymentMethod: PaymentMethod(
                creditCardNumber: "5500 0000 0000 0004",
                expirationDate: Date(timeIntervalSince1970: 1_893_456_000),
                cvv: "456"),
            shipmentMethod: ShipmentMethod(speed: .standard),
            items: [OrderItem(name: "Battery", quantity: 2, unitPrice: Decimal(string: "2.28") ?? 0)],
            total: Decimal(string: "4.56") ?? 0),
    ]

    /// Makes a store holding `orders`.
    ///
    /// - Parameters:
    ///   - orders: What the store starts with; the two sample orders by default.
    ///   - makeID: Makes the identifier of each new order; a UUID by default.
    public init(
        orders: [Order] = OrdersMemStore.sampleOrders,
        makeID: @escaping @Sendable () -> String = { UUID().uuidString }
    ) {
        self.orders = orders
        self.makeID = makeID
    }

    /// All orders, newest first.
    ///
    /// - Returns: A promise of the orders.
    public func fetchOrders() -> Promise<[Order]> {
        .value(lock.withLock { orders.sorted { $0.date > $1.date } })
    }

    /// One order.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the order, or rejected with `notFound`.
    public func fetchOrder(id: String) -> Promise<Order> {
        Promise { seal in
            guard let order = lock.withLock({ orders.first { $0.id == id } }) else {
                throw OrdersStoreError(.fetchOrder, .notFound(id: id))
            }
            seal.fulfill(order)
        }
    }

    /// Stores a new order under a new identifier, with its total computed.
    ///
    /// - Parameter order: The order; its `id` and `total` are ignored.
    /// - Returns: A promise of the order as stored.
    public func createOrder(_ order: Order) -> Promise<Order> {
        Promise { seal in
            try order.validateForStore(.createOrder)
            var created = order
            created.id = makeID()
            created.total = order.computedTotal
            lock.withLock { orders.append(created) }
            seal.fulfill(created)
        }
    }

    /// Replaces an order, recomputing its total.
    ///
    /// - Parameter order: The order, with the `id` of the one to replace.
    /// - Returns: A promise of the order as stored, or rejected with `notFound`.
    public func updateOrder(_ order: Order) -> Promise<Order> {
        Promise { seal in
            try order.validateForStore(.updateOrder)
            var updated = order
            updated.total = order.computedTotal
            let replaced = lock.withLock { () -> Bool in
                guard let index = orders.firstIndex(where: { $0.id == order.id }) else { return false }
                orders[index] = updated
                return true
            }
            guard replaced else { throw OrdersStoreError(.updateOrder, .notFound(id: order.id ?? "")) }
            seal.fulfill(updated)
        }
    }

    /// Deletes an order.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the deleted order, or rejected with `notFound`.
    public func deleteOrder(id: String) -> Promise<Order> {
        Promise { seal in
            let deleted = lock.withLock { () -> Order? in
                guard let index = orders.firstIndex(where: { $0.id == id }) else { return nil }
                return orders.remove(at: index)
            }
            guard let deleted else { throw OrdersStoreError(.deleteOrder, .notFound(id: id)) }
            seal.fulfill(deleted)
        }
    }
}
