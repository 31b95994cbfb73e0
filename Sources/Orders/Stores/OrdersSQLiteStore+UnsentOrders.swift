import Foundation
import Promises
import Services

extension OrdersSQLiteStore {
    /// Queues the POST of every order created on this device that has no outbox entry: orders
    /// created offline by a version without the outbox, which kept them here only.
    func queueUnsentDeviceOrders() -> Promise<Int> {
        let outbox = outbox
        return write { connection in
            var queued = 0
            for var order in try OrderRows.orders(connection, .device) {
                let id = order.id ?? ""
                guard try outbox.entries(for: id, in: connection).isEmpty else { continue }
                order.id = nil  // the shop names it
                try outbox.record(.post, "orders", json: order, localID: id, in: connection)
                queued += 1
            }
            return queued
        }
    }
}
