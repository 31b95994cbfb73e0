import Foundation
import OfflineKit
import Orders
import Promises
import Services

/// `orders update ID` and the conflict part of `orders show ID`.
extension Screens {
    static func update(_ id: String, _ changes: [String: [String]], _ app: App, _ terminal: Terminal) async
        -> Int32
    {
        let (worker, formatter) = (app.worker, app.formatter)
        do {
            var order = try await worker.fetchOrder(id: id).value
            try Arguments.apply(changes, to: &order)
            guard await knowsCustomer(of: order, app, terminal) else { return 2 }
            let updated = try await worker.updateOrder(order).value
            terminal.print(
                "Updated order \(updated.id ?? id) (\(formatter.name(updated)), \(formatter.currency(updated.total)))"
            )
            if let saved = OrdersSyncWording.change(await worker.syncState(of: id).value) {
                terminal.print(saved, style: .yellow)
            }
            return 0
        } catch let error as UsageError {
            terminal.printError(error.line)
            return 2
        } catch let error as OrdersStoreError {
            terminal.printError("demo: \(error.userMessage)")
            if case .invalid = error.reason { return 2 }
            return 1
        } catch {
            terminal.printError("demo: \(message(for: error))")
            return 1
        }
    }

    /// When the order's change stands against the shop's copy: the fields that differ, this
    /// device's value beside the shop's, and how to settle it.
    static func conflict(
        of order: Order, _ state: SyncState, _ formatter: OrderFormatter, _ terminal: Terminal
    ) {
        guard case .conflicted(let theirs, let deleted) = state else { return }
        terminal.print()
        if deleted {
            terminal.print("The shop deleted this order meanwhile.", style: .yellow)
        } else if let theirs, let shop = try? APIClient.decode(Order.self, from: theirs) {
            terminal.print("Changed in the shop meanwhile:", style: .yellow)
            let rows = zip(fields(order, formatter), fields(shop, formatter)).compactMap { mine, theirs in
                mine.1 == theirs.1 ? nil : [mine.0, mine.1, theirs.1]
            }
            let table = Table(headers: ["Field", "This device", "Shop"], rows: rows, fixed: [0])
            for (index, line) in table.lines(fitting: terminal.width).enumerated() {
                terminal.print(line, style: index == 0 ? .dim : .plain)
            }
        } else {
            terminal.print("Changed in the shop meanwhile (its copy was not sent).", style: .yellow)
        }
        terminal.print(
            "Settle it: demo orders resolve \(order.id ?? "ID") --keep-mine | --keep-theirs", style: .yellow)
    }

    /// The fields a conflict compares, as the user reads them.
    private static func fields(_ order: Order, _ formatter: OrderFormatter) -> [(String, String)] {
        let address = order.shipmentAddress
        return [
            ("Name", formatter.name(order)), ("Email", order.email), ("Phone", order.phone),
            (
                "Ship to",
                [address.street1, address.city, address.state, address.zip].filter { !$0.isEmpty }.joined(
                    separator: ", ")
            ),
            ("Shipping", order.shipmentMethod.speed.title),
            ("Items", order.items.map { "\($0.quantity) × \($0.name)" }.joined(separator: ", ")),
            ("Total", formatter.currency(order.total)),
        ]
    }
}
