import Foundation
public import Orders

/// The shop's orders API, kept in memory, for ``TestHTTPServer``: a ``TestResourceAPI`` for
/// `/orders` whose orders are ``Order`` values. It names what it creates `srv-1`, `srv-2`, …,
/// computes each order's total from its items as the shop does, and refuses with `400` a body that
/// is not an order.
///
/// Everything else is the resource API's: versions with `ETag`/`If-Match`/`412`,
/// `Idempotency-Key`, the record of what it applied, and the failures it makes on purpose.
///
/// ```swift
/// let shop = TestOrdersShop(orders: Order.samples)
/// let server = try TestHTTPServer(responder: shop.respond)
/// ```
public typealias TestOrdersShop = TestResourceAPI

extension TestResourceAPI {
    /// Makes a shop holding `orders` (each with its `id`, at its `version` or version 1).
    ///
    /// - Parameters:
    ///   - orders: The orders it starts with.
    ///   - customers: The shop's customers API, when it checks them: an order naming a customer
    ///     `customers` does not hold is refused with `400`, as a shop that checks references does.
    public convenience init(orders: [Order] = [], customers: TestResourceAPI? = nil) {
        self.init(
            collection: "orders", resources: orders, naming: { "srv-\($0)" },
            accepting: { body in
                guard var order = try? APIClient.decode(Order.self, from: body) else { return nil }
                if let customer = order.customerID, let customers, customers.resource(customer) == nil {
                    return nil
                }
                order.total = order.computedTotal
                return try? APIClient.encode(order)
            })
    }

    /// The orders it holds, newest first.
    public var storedOrders: [Order] {
        resources(as: Order.self).sorted { ($0.date, $0.id ?? "") > ($1.date, $1.id ?? "") }
    }

    /// Changes an order as another device would: `change` applies to it, its total is computed
    /// again, and its version moves on.
    ///
    /// - Parameters:
    ///   - id: The order's identifier.
    ///   - change: What the other device changed.
    public func editOnServer(_ id: String, _ change: (inout Order) -> Void) {
        edit(id, as: Order.self, change)
    }

    /// Deletes an order as another device would: ``delete(_:)``.
    ///
    /// - Parameter id: The order's identifier.
    public func deleteOnServer(_ id: String) {
        delete(id)
    }
}

extension TestResourceAPI {
    /// The shop's customers API, `/customers`, naming what it creates `cus-1`, `cus-2`, …; put
    /// it behind the same server as the orders (route by path) and give it to
    /// ``init(orders:customers:)`` to have orders checked against it.
    ///
    /// - Parameter customers: The customers it starts with.
    /// - Returns: The API.
    public static func customers(_ customers: [Customer] = []) -> TestResourceAPI {
        TestResourceAPI(collection: "customers", resources: customers, naming: { "cus-\($0)" })
    }
}
