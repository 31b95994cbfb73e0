public import Foundation
public import Promises
import Services

/// Orders kept in memory: for tests, previews and demos. Safe to use from any thread.
public final class OrdersMemStore: OrdersStore, Sendable {
    private let orders: Locked<[Order]>
    private let makeID: @Sendable () -> String

    /// Makes a store holding `orders`.
    ///
    /// - Parameters:
    ///   - orders: What the store starts with (``Order/samples`` for a preview); none by default.
    ///   - makeID: Makes the identifier of each new order; a UUID by default.
    public init(
        orders: [Order] = [],
        makeID: @escaping @Sendable () -> String = { UUID().uuidString }
    ) {
        self.orders = Locked(orders)
        self.makeID = makeID
    }

    /// All orders, newest first; orders of one date by identifier, as pages list them.
    ///
    /// - Returns: A promise of the orders.
    public func fetchOrders() -> Promise<[Order]> {
        .value(orders.withLock { orders in OrdersPage.newest(orders) })
    }

    /// One order.
    ///
    /// - Parameter id: The order's identifier.
    /// - Returns: A promise of the order, or rejected with `notFound`.
    public func fetchOrder(id: String) -> Promise<Order> {
        Promise { seal in
            guard
                let order = orders.withLock({ orders in
                    orders.first { ($0.id ?? "").isSameIdentifier(as: id) }
                })
            else {
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
            orders.withLock { $0.append(created) }
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
            let replaced = orders.withLock { orders -> Bool in
                guard
                    let index = orders.firstIndex(where: {
                        ($0.id ?? "").isSameIdentifier(as: order.id ?? "")
                    })
                else { return false }
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
            let deleted = orders.withLock { orders -> Order? in
                guard let index = orders.firstIndex(where: { ($0.id ?? "").isSameIdentifier(as: id) }) else {
                    return nil
                }
                return orders.remove(at: index)
            }
            guard let deleted else { throw OrdersStoreError(.deleteOrder, .notFound(id: id)) }
            seal.fulfill(deleted)
        }
    }
}
