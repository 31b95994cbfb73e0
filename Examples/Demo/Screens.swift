import Foundation
import Melodies
import Orders
import Promises
import Services

/// Each command's screen: a presenter, a terminal view, and the exit code once its promise settled.
@MainActor
enum Screens {
    static func melodies(_ service: LiveMelodyService, _ arguments: Arguments, _ terminal: Terminal) async
        -> Int32
    {
        let view = TerminalMelodyListView(terminal: terminal, api: arguments.api)
        let presenter = MelodyListPresenterImp(
            melodyService: service, view: view, cachePolicy: arguments.cachePolicy)
        view.presenter = presenter
        return await exitCode(of: presenter.fetchMelodies())
    }

    static func orders(
        _ app: App, _ arguments: Arguments, _ terminal: Terminal
    ) async -> Int32 {
        // Another account's orders are shown to nobody: say whose they are, not "sign in".
        if let whose = await SignInScreen.ownerMessage(app) {
            terminal.printError("demo: \(whose)")
            return 1
        }
        let (worker, formatter) = (app.worker, app.formatter)
        let view = TerminalOrdersView(terminal: terminal, api: arguments.api)
        view.sample = await Seeding.ordersAreSample(app.database)
        let presenter = ListOrdersPresenter(
            worker: worker, output: view, formatter: formatter, cachePolicy: arguments.cachePolicy)
        view.listPresenter = presenter
        if arguments.countOnly {
            // The copy's count, of one customer's orders (by its local or shop id) or of all.
            let counted =
                arguments.customer.map { worker.fetchOrders(ofCustomer: $0) }
                ?? worker.fetchOrdersPage(after: nil, limit: 1)
            do {
                let page = try await counted.value
                terminal.print(Self.counted(page.count ?? page.orders.count))
                return 0
            } catch {
                terminal.printError("demo: \(message(for: error))")
                return 1
            }
        }
        if let customer = arguments.customer {
            return await exitCode(of: presenter.fetchOrders(ofCustomer: customer))
        }
        guard arguments.offline else { return await exitCode(of: presenter.fetchOrders()) }
        // Offline, the copy is printed a page at a time, each page read after the one before was
        // printed: a list of any length is never held whole.
        var cursor: OrdersPage.Cursor?
        repeat {
            guard let page = try? await presenter.fetchOrdersPage(after: cursor, limit: 1_000).value else {
                return 1
            }
            cursor = page.next
        } while cursor != nil
        return 0
    }

    /// "1 order", "3 orders" (or of another `noun`: "1 file", "3 files").
    nonisolated static func counted(_ count: Int, _ noun: String = "order") -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
    }

    static func order(_ id: String, _ app: App, _ terminal: Terminal) async -> Int32 {
        let (worker, formatter) = (app.worker, app.formatter)
        do {
            let order = try await worker.fetchOrder(id: id).value
            terminal.print("Order \(order.id ?? id)", style: .bold)
            let address = order.shipmentAddress
            for (label, value) in [
                ("Date", formatter.date(order.date)), ("Name", formatter.name(order)), ("Email", order.email),
                ("Phone", order.phone),
                (
                    "Ship to",
                    [address.street1, address.city, address.state, address.zip].filter { !$0.isEmpty }.joined(
                        separator: ", ")
                ),
                ("Shipping", order.shipmentMethod.speed.title),
                ("Card", order.paymentMethod.maskedCardNumber),
            ] {
                terminal.print("  \(label.padding(to: 9)) \(value)")
            }
            for item in order.items {
                terminal.print(
                    "  \("Item".padding(to: 9)) \(item.quantity) × \(item.name) at \(formatter.currency(item.unitPrice))"
                )
            }
            terminal.print("  \("Total".padding(to: 9)) \(formatter.currency(order.total))")
            if let customer = order.customerID {
                let named = await CustomersScreen.describe(customer, app.orders.customers)
                terminal.print("  \("Customer".padding(to: 9)) \(named)")
                if let wait = try? await app.orders.waitingCustomer(of: id).value {
                    terminal.print(CustomersScreen.holding(wait, named: named), style: .yellow)
                }
            }
            await AttachmentsScreen.show(order, app.orders, terminal)
            conflict(of: order, await worker.syncState(of: id).value, formatter, terminal)
            return 0
        } catch {
            terminal.printError("demo: \(message(for: error))")
            return 1
        }
    }

    static func create(_ order: Order, _ app: App, _ terminal: Terminal) async -> Int32 {
        let (worker, formatter) = (app.worker, app.formatter)
        guard await knowsCustomer(of: order, app, terminal) else { return 2 }
        let view = TerminalOrdersView(terminal: terminal, api: nil)
        let presenter = CreateOrderPresenter(worker: worker, output: view, formatter: formatter)
        view.createPresenter = presenter
        do {
            _ = try await presenter.createOrder(request: CreateOrder.CreateOrder.Request(order: order)).value
            return 0
        } catch let error as OrdersStoreError {
            // A value the order cannot take is a wrong command line, like bad syntax.
            if case .invalid = error.reason { return 2 }
            return 1
        } catch {
            return 1
        }
    }

    static func delete(
        _ id: String, _ worker: OrdersWorker, _ formatter: OrderFormatter, _ terminal: Terminal
    ) async -> Int32 {
        do {
            let order = try await worker.deleteOrder(id: id).value
            terminal.print(
                "Deleted order \(order.id ?? id) (\(formatter.name(order)), \(formatter.currency(order.total)))"
            )
            if let saved = OrdersSyncWording.change(await worker.syncState(of: id).value) {
                terminal.print(saved, style: .yellow)
            }
            return 0
        } catch {
            terminal.printError("demo: \(message(for: error))")
            return 1
        }
    }

    /// 0 once `promise` is fulfilled, 1 once it is rejected: the view has shown why by then.
    /// Whether the customer `order` names, if any, is one this device shows (or the shop has);
    /// says so when not, as a wrong command line (exit 2).
    static func knowsCustomer(of order: Order, _ app: App, _ terminal: Terminal) async -> Bool {
        guard let id = order.customerID, !(await CustomersScreen.exists(id, app.orders.customers)) else {
            return true
        }
        let shown = Terminal.escaped(id)
        terminal.printError(
            UsageError(
                message: "no customer \(shown) on this device or in the shop ('demo customers' lists them)"
            )
            .line)
        return false
    }

    private static func exitCode<Value>(of promise: Promise<Value>) async -> Int32 {
        do {
            _ = try await promise.value
            return 0
        } catch {
            return 1
        }
    }

    static func message(for error: any Error) -> String {
        (error as? OrdersStoreError)?.userMessage ?? ServiceRequestError(error).userMessage
    }
}
