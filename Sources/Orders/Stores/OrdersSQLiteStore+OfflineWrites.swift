import Foundation
import Promises
import Services

/// The writes ``FallbackOrdersStore`` keeps for the API: each local change and its `Outbox`
/// entry in one transaction, and what a delivered or discarded entry does to the local copy.
extension OrdersSQLiteStore {
    /// The path of one order in the API.
    static func path(of id: String) -> String {
        "orders/\(APIClient.pathSegment(id))"
    }

    /// What the API is sent for `order`: no identifier (it is in the path), the computed total,
    /// and the card as stored here, masked: card data is never written to the device, so a change
    /// made offline never carries it (a real shop takes payment through a processor's token).
    static func body(of order: Order) -> Order {
        var body = OrderRows.asStored(order)
        body.id = nil
        body.total = order.computedTotal
        return body
    }

    /// Creates `order` on this device under a new local identifier and queues its POST;
    /// `mayHaveArrived` when an online attempt's answer never came (see `Outbox.record`).
    func queueCreate(_ order: Order, idempotencyKey: String, mayHaveArrived: Bool = false) -> Promise<Order> {
        let makeID = makeID
        let outbox = outbox
        return write { connection in
            let id = makeID()
            let created = try Self.insertNew(order, id: id, connection)
            try outbox.record(
                .post, "orders", json: Self.body(of: created), localID: id, idempotencyKey: idempotencyKey,
                mayHaveArrived: mayHaveArrived, in: connection)
            return OrderRows.asStored(created)
        }
        .failing(as: .createOrder)
    }

    /// Replaces `order` on this device and queues its PUT (merged into a change of it not sent yet).
    func queueUpdate(
        _ order: Order, idempotencyKey: String = UUID().uuidString, mayHaveArrived: Bool = false
    ) -> Promise<Order> {
        let outbox = outbox
        return write { connection in
            try order.validateForStore(.updateOrder)
            guard let id = order.id, let stored = try OrderRows.orders(connection, .id(id)).first else {
                throw OrdersStoreError(.updateOrder, .notFound(id: order.id ?? ""))
            }
            var updated = order
            updated.total = order.computedTotal
            updated.version = stored.version  // made on top of the copy kept here
            try OrderRows.replace(updated, connection, origin: OrderRows.Origin.device)
            try outbox.record(
                .put, Self.path(of: id), json: Self.body(of: updated), localID: id,
                idempotencyKey: idempotencyKey, mayHaveArrived: mayHaveArrived, baseVersion: stored.version,
                base: try APIClient.encode(Self.body(of: stored)), in: connection)
            return OrderRows.asStored(updated)
        }
        .failing(as: .updateOrder)
    }

    /// Hides the order on this device and queues its DELETE; an order the API never had (its
    /// create not sent yet) is removed here and nothing is sent.
    func queueDelete(
        id: String, idempotencyKey: String = UUID().uuidString, mayHaveArrived: Bool = false
    ) -> Promise<Order> {
        let outbox = outbox
        return write { connection in
            guard let order = try OrderRows.orders(connection, .id(id)).first else {
                throw OrdersStoreError(.deleteOrder, .notFound(id: id))
            }
            let recorded = try outbox.record(
                .delete, Self.path(of: id), body: nil, localID: id, idempotencyKey: idempotencyKey,
                mayHaveArrived: mayHaveArrived, baseVersion: order.version,
                base: try APIClient.encode(Self.body(of: order)), in: connection)
            if recorded == .cancelledOut {
                try connection.execute("DELETE FROM orders WHERE id = ?", [.text(id)])
            } else {
                try connection.execute(
                    "UPDATE orders SET deleted = 1, origin = ? WHERE id = ?",
                    [.text(OrderRows.Origin.device), .text(id)])
            }
            return order
        }
        .failing(as: .deleteOrder)
    }

    /// Queues the POST of every order created on this device that has no outbox entry: orders
    /// created offline by a version without the outbox, which kept them here only.
    func queueUnsentDeviceOrders() -> Promise<Int> {
        let outbox = outbox
        return write { connection in
            var queued = 0
            for order in try OrderRows.orders(connection, .device) {
                let id = order.id ?? ""
                guard try outbox.entries(for: id, in: connection).isEmpty else { continue }
                try outbox.record(.post, "orders", json: Self.body(of: order), localID: id, in: connection)
                queued += 1
            }
            return queued
        }
    }

    /// The shop's version of the order as kept here, or `nil`.
    func version(of id: String) -> Promise<String?> {
        read { try OrderRows.orders($0, .id(id)).first?.version }
    }

    /// Whether the order has changes that wait for the API (or were refused by it): while it has,
    /// its next changes go behind them.
    func hasQueuedChanges(id: String) -> Promise<Bool> {
        let outbox = outbox
        return read { try !outbox.entries(for: id, in: $0).isEmpty }
    }

    /// Makes the local copy what the API holds once it accepted `entry`: the shop's identifier
    /// for a created order, and the shop's version once no later change of it waits.
    @Sendable
    static func applyDelivered(
        _ entry: OutboxEntry, answer: Data, outbox: Outbox, _ connection: Connection
    ) throws -> String? {
        let id = entry.localID
        let settled = try outbox.entries(for: id, in: connection).isEmpty
        switch entry.method {
        case .post:
            guard var shop = try? APIClient.decode(Order.self, from: answer), let remoteID = shop.id,
                !remoteID.isEmpty
            else {
                // Delivered, answer unreadable: the shop has the order, under an identifier this
                // device cannot learn. Not refused (a retry would only get the same answer): the
                // copy here is marked the shop's, so the next fresh listing puts the shop's own row
                // in its place instead of listing the order twice.
                try connection.execute(
                    "UPDATE orders SET origin = ? WHERE id = ?", [.text(OrderRows.Origin.api), .text(id)])
                return nil
            }
            if remoteID != id {
                try connection.execute("DELETE FROM orders WHERE id = ?", [.text(remoteID)])
            }
            if settled {
                try connection.execute("DELETE FROM orders WHERE id = ?", [.text(id)])
                shop.id = remoteID
                try OrderRows.insert(shop, connection, origin: OrderRows.Origin.api)
            } else {
                // Later changes of this order wait: keep its local version, under the shop's id.
                try connection.execute("PRAGMA defer_foreign_keys = ON")
                try connection.execute("UPDATE orders SET id = ? WHERE id = ?", [.text(remoteID), .text(id)])
                try connection.execute(
                    "UPDATE order_items SET order_id = ? WHERE order_id = ?", [.text(remoteID), .text(id)])
            }
            return remoteID
        case .put where settled:
            if var shop = try? APIClient.decode(Order.self, from: answer) {
                shop.id = id
                try OrderRows.replace(shop, connection, origin: OrderRows.Origin.api)
            } else {
                try connection.execute(
                    "UPDATE orders SET origin = ? WHERE id = ?", [.text(OrderRows.Origin.api), .text(id)])
            }
        case .delete where settled:
            try connection.execute("DELETE FROM orders WHERE id = ?", [.text(id)])
        default:
            break
        }
        return nil
    }

    /// Makes the copy here the shop's after a conflict resolved with theirs: its copy, or nothing
    /// when it deleted the order (or did not send its copy: the next listing brings it).
    @Sendable
    static func applyTheirs(_ id: String, _ theirs: Data?, _ connection: Connection) throws {
        guard let theirs, var shop = try? APIClient.decode(Order.self, from: theirs) else {
            try connection.execute("DELETE FROM orders WHERE id = ?", [.text(id)])
            return
        }
        shop.id = id
        try OrderRows.replace(shop, connection, origin: OrderRows.Origin.api)
    }

    /// Undoes discarded changes here: an order the shop never had goes; one it has goes until the
    /// next listing brings back the shop's version.
    @Sendable
    static func revertDiscarded(_ entries: [OutboxEntry], _ connection: Connection) throws {
        guard let id = entries.first?.localID else { return }
        if entries.contains(where: { $0.method == .post }) {
            try connection.execute("DELETE FROM orders WHERE id = ?", [.text(id)])
        } else {
            try connection.execute(
                "DELETE FROM orders WHERE id = ? AND origin = ?", [.text(id), .text(OrderRows.Origin.device)])
        }
    }
}
