import Foundation
import OfflineKit
import Orders
import Services

/// The orders screens in a terminal: the list, and the create form's answers.
@MainActor
final class TerminalOrdersView: ListOrdersDisplayLogic, CreateOrderDisplayLogic {
    var listPresenter: ListOrdersPresenter?
    var createPresenter: CreateOrderPresenter?
    let terminal: Terminal
    private let api: URL?
    private let spinner: Spinner

    /// The library's sentences for where the orders came from.
    private static let notices = SourceNotice(noun: "orders")

    /// Where fresh orders came from, as the notices name it.
    private var source: String { api?.withoutCredentials ?? "the API" }

    init(terminal: Terminal, api: URL?) {
        self.terminal = terminal
        self.api = api
        spinner = Spinner(terminal: terminal)
    }

    // MARK: - ListOrdersDisplayLogic

    /// A list printed a page at a time: the first page's column widths, and what the pages'
    /// orders say under the table (see `displayOrdersPage(viewModel:)`).
    var pageWidths: [Int]?
    var pagesSaid: [String] = []

    /// The orders printed last, so that a refresh that changed nothing is not printed twice.
    private var printedOrders: [ListOrders.FetchOrders.ViewModel.DisplayedOrder]?

    /// Whether the copy shown is the demo's sample, never confirmed by the shop: its orders are
    /// labelled "sample", not "synced", and the list says so. Fresh orders from the shop end it.
    var sample = false

    /// Watching (`orders watch`): a view model equal to the one on screen is not shown again, and
    /// a new one replaces it in place on a terminal.
    var watching = false
    /// How many orders a watch shows at most (the newest); a list that long says so in its title.
    var watchedAtMost: Int?
    private var watched: ListOrders.FetchOrders.ViewModel?
    /// A watch's line on other devices' changes: pushed by the shop (live), or asked for.
    private(set) var changesLine: String?

    /// Shows `line` under a watched list from now on, the list shown again with it.
    func showChangesLine(_ line: String) {
        guard line != changesLine else { return }
        changesLine = line
        guard let shown = watched else { return }
        watched = nil
        displayFetchedOrders(viewModel: shown)
    }

    func displayFetchedOrders(viewModel: ListOrders.FetchOrders.ViewModel) {
        if watching {
            guard viewModel != watched else { return }
            watched = viewModel
            printedOrders = nil
            terminal.clearScreen()
        }
        if viewModel.notice == nil { sample = false }  // fresh from the shop
        let orders = viewModel.displayedOrders
        if orders == printedOrders {
            terminal.print(
                viewModel.notice ?? Self.notices.freshText(from: source, unchanged: true), style: .yellow)
            return
        }
        printedOrders = orders
        terminal.print(
            watchedAtMost == orders.count
                ? "Orders (the newest \(orders.count))" : "Orders (\(orders.count))",
            style: .bold)
        let table = Self.table(orders, sample: sample)
        for (index, line) in table.lines(fitting: terminal.width).enumerated() {
            terminal.print(line, style: index == 0 ? .dim : .plain)
        }
        printFooter(
            said: Self.said(orders) + (sample ? [Self.sampleNotice] : []),
            notice: viewModel.notice ?? Self.notices.freshText(from: source, unchanged: false),
            syncNotice: viewModel.syncNotice)
    }

    /// The list's table: one row per order.
    static func table(
        _ orders: [ListOrders.FetchOrders.ViewModel.DisplayedOrder], sample: Bool = false
    ) -> Table<ListOrders.FetchOrders.ViewModel.DisplayedOrder> {
        Table(
            headers: ["ID", "Date", "Name", "Email", "Total", "Shop"],
            rows: orders,
            cells: {
                [$0.id, $0.date, $0.name, $0.email, $0.total, Self.label($0.syncState, sample: sample)]
            },
            fixed: [0, 1, 4, 5])
    }

    /// What the list says under the sample's table.
    nonisolated static let sampleNotice = "Sample orders: the shop has not been reached yet."

    /// What the list says under its table of the orders whose change the shop refused or could
    /// not take (a waiting one says so in its row).
    static func said(_ orders: [ListOrders.FetchOrders.ViewModel.DisplayedOrder]) -> [String] {
        orders.compactMap { order in
            if case .pending = order.syncState { return nil }
            return OrdersSyncWording.change(order.syncState).map { "Order \(order.id): \($0)" }
        }
    }

    /// The lines under the table: each order's sync trouble, where the orders came from, and how
    /// many changes wait.
    func printFooter(said: [String], notice: String?, syncNotice: String?) {
        for line in said {
            terminal.print(line, style: .yellow)
        }
        terminal.print()
        if let notice {
            terminal.print(notice, style: .yellow)
        }
        if let syncNotice {
            terminal.print(syncNotice, style: .yellow)
        }
        if watching, let changesLine {
            terminal.print(changesLine, style: .dim)
        }
    }

    /// The "Shop" column: whether the shop has the order as shown.
    static func label(_ state: SyncState, sample: Bool = false) -> String {
        switch state {
        case .synced: sample ? "sample" : "synced"
        case .pending: "waiting"
        case .refused: "refused"
        case .stuck: "stuck"
        case .damaged: "damaged"
        case .conflicted: "conflict"
        }
    }

    func displayFetchOrdersError(message: String) {
        terminal.printError("demo: \(message)")
    }

    // MARK: - CreateOrderDisplayLogic

    func displayExpirationDate(viewModel: CreateOrder.FormatExpirationDate.ViewModel) {
        terminal.print("Card expires: \(viewModel.date)")
    }

    func displayCreatedOrder(viewModel: CreateOrder.CreateOrder.ViewModel) {
        guard let order = viewModel.displayedOrder else { return }
        terminal.print("Created order \(order.id)", style: .bold)
        for (label, value) in [
            ("Date", order.date), ("Name", order.name), ("Email", order.email),
            ("Shipping", order.shippingMethod),
            ("Card", order.card), ("Total", order.total),
        ] {
            terminal.print("  \(label.padding(to: 9)) \(value)")
        }
        if let notice = viewModel.notice {
            terminal.print(notice, style: .yellow)
        }
    }

    func displayValidationErrors(viewModel: CreateOrder.CreateOrder.ViewModel) {
        terminal.printError("demo: the order was not created:")
        for field in OrderField.allCases {
            guard let message = viewModel.fieldErrors[field] else { continue }
            terminal.printError("  \(Arguments.option(for: field)): \(message)")
        }
    }

    func displayCreateOrderError(message: String) {
        terminal.printError("demo: \(message)")
    }
}
