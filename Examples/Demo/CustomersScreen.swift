import Foundation
import OfflineKit
import Orders
import Promises
import Services

/// `demo customers` and `demo customers create`: the shop's customers, kept offline beside the
/// orders, which may name them with `--customer ID` before the shop has them.
@MainActor
enum CustomersScreen {
    /// Lists the customers, from the shop or the offline copy, each with its sync state.
    static func list(_ customers: CustomersStore, _ arguments: Arguments, _ terminal: Terminal) async -> Int32
    {
        do {
            let fetched = try await customers.fetchCustomers(policy: arguments.cachePolicy).value
            let items = fetched.value.items.sorted {
                ($0.value.name, $0.value.id ?? "") < ($1.value.name, $1.value.id ?? "")
            }
            terminal.print("Customers (\(items.count))", style: .bold)
            let table = Table(
                headers: ["ID", "Name", "Email", "Shop"], rows: items,
                cells: {
                    [$0.value.id ?? "", $0.value.name, $0.value.email, TerminalOrdersView.label($0.state)]
                },
                fixed: [0, 3])
            for (index, line) in table.lines(fitting: terminal.width).enumerated() {
                terminal.print(line, style: index == 0 ? .dim : .plain)
            }
            for item in items {
                guard item.state != .pending, let said = OrdersSyncWording.change(item.state) else {
                    continue
                }
                terminal.print("Customer \(item.value.id ?? ""): \(said)", style: .yellow)
            }
            if let waiting = OrdersSyncWording.list(fetched.value.status) {
                terminal.print(waiting, style: .yellow)
            }
            return 0
        } catch {
            terminal.printError("demo: \(Screens.message(for: error))")
            return 1
        }
    }

    /// Creates a customer: in the shop, or here with its create waiting.
    static func create(_ customer: Customer, _ customers: CustomersStore, _ terminal: Terminal) async -> Int32
    {
        do {
            let created = try await customers.createCustomer(customer).value
            let id = created.id ?? ""
            terminal.print("Created customer \(id) (\(created.name), \(created.email))", style: .bold)
            let state = try await customers.syncStatus().value.states[id] ?? .synced
            if let saved = OrdersSyncWording.change(state) {
                terminal.print(saved, style: .yellow)
            }
            return 0
        } catch {
            terminal.printError("demo: \(Screens.message(for: error))")
            return 1
        }
    }

    /// `customers retry ID`: sends the customer's refused or stuck change again, then every change
    /// that waits (its orders too).
    static func retry(
        _ id: String, _ store: FallbackOrdersStore, _ arguments: Arguments, _ terminal: Terminal
    ) async -> Int32 {
        let shown = Terminal.escaped(id)
        do {
            _ = try await store.customers.retry(id: id).value
            terminal.print("Sent customer \(shown)'s change again.")
        } catch {
            terminal.printError("demo: customer \(shown) has no change the shop refused or failed too often")
            return 1
        }
        return await SyncScreen.sync(store, all: true, arguments, terminal)
    }

    /// `customers discard ID`: drops the customer's held change; the orders that named it are
    /// listed, held, with what the user can do with each.
    static func discard(_ id: String, _ store: FallbackOrdersStore, _ terminal: Terminal) async -> Int32 {
        let shown = Terminal.escaped(id)
        let children = (try? await store.ordersNaming(customer: id).value) ?? []
        do {
            let dropped = try await store.customers.discard(id: id).value
            terminal.print(
                "Discarded \(SignInScreen.changes(dropped.count)) to customer \(shown).")
        } catch {
            terminal.printError(
                "demo: customer \(shown) has no change that was refused, failed too often or damaged")
            return 1
        }
        if !children.isEmpty {
            let orders = children.map(Terminal.escaped).joined(separator: ", ")
            terminal.print(
                "\(children.count == 1 ? "Order" : "Orders") \(orders) named customer \(shown): the next sync "
                    + "holds \(children.count == 1 ? "it" : "them"), and 'demo orders discard ID' then drops one.",
                style: .yellow)
        }
        return 0
    }

    /// What the user can do about the customers' held changes, naming each with the orders it
    /// holds back: for `demo sync`'s report.
    static func held(_ store: FallbackOrdersStore) async -> [String] {
        guard let status = try? await store.customers.syncStatus().value else { return [] }
        var lines: [String] = []
        for (id, state) in status.states.sorted(by: { $0.key < $1.key }) {
            guard case .refused(let reason) = state else { continue }
            let shown = Terminal.escaped(id)
            let orders = (try? await store.ordersNaming(customer: id).value) ?? []
            let holding =
                orders.isEmpty
                ? ""
                : " It holds back \(orders.count == 1 ? "order" : "orders") "
                    + orders.map(Terminal.escaped).joined(separator: ", ") + "."
            lines.append(
                "Customer \(shown) was refused by the shop (\(reason)).\(holding) "
                    + "'demo customers retry \(shown)' sends it again, 'demo customers discard \(shown)' drops it."
            )
        }
        return lines
    }

    /// The customer an order names, as `orders show` prints it: "Eve Elder (a1b2c3d4)", or the
    /// identifier alone when this device does not have the customer.
    static func describe(_ id: String, _ customers: CustomersStore) async -> String {
        guard let customer = try? await customers.fetchCustomer(id: id).value else { return id }
        return "\(customer.name) (\(customer.id ?? id))"
    }

    /// Why an order waits for its customer `named`: the customer's create on its way, or held.
    nonisolated static func holding(_ wait: OfflineParentWait, named: String) -> String {
        let waiting = "Waiting for customer \(named)"
        switch wait.state {
        case .refused(let reason):
            return "\(waiting), which the shop refused (\(reason))."
        case .stuck:
            return "\(waiting), whose create failed too often: 'demo sync' tries again."
        case .conflicted, .damaged:
            return "\(waiting), whose create cannot be sent as it is."
        case .pending, .synced:
            return "\(waiting), who is sent first: 'demo sync' sends both."
        }
    }

    /// Whether the customer `id` is known here (or to the shop): an order may name it.
    static func exists(_ id: String, _ customers: CustomersStore) async -> Bool {
        (try? await customers.fetchCustomer(id: id).value) != nil
    }
}
