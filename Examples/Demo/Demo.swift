import Foundation
import Melodies
import Orders
import Promises
import Services

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `demo`: fetches and shows melodies or orders in a terminal, with the same presenters an iOS app
/// uses. The entry point is `async`, so the main actor (and the main queue the presenters' handlers
/// run on) is running on Linux too.
@main
struct Demo {
    static func main() async {
        let terminal = Terminal()
        let environment = ProcessInfo.processInfo.environment
        let arguments: Arguments
        do {
            arguments = try Arguments.parse(
                Array(CommandLine.arguments.dropFirst()), environment: environment)
        } catch {
            terminal.printError("demo: \((error as? UsageError)?.message ?? "\(error)") (see demo --help)")
            exit(2)
        }
        exit(await run(arguments, terminal))
    }

    @MainActor
    static func run(_ arguments: Arguments, _ terminal: Terminal) async -> Int32 {
        switch arguments.command {
        case .help:
            terminal.printLines(Arguments.usage)
            return 0
        case .version:
            terminal.print(Arguments.version)
            return 0
        case .exportSampleAPI(let folder):
            return export(to: folder, terminal)
        default:
            break
        }
        let database: Database
        do {
            // Several demos may run at once on one file: each waits up to 30 s for the others'
            // writes, as a command-line tool may, rather than fail.
            database = try Database(at: arguments.database, busyTimeout: 30)
            try await Seeding.seedIfNeeded(database)
        } catch {
            terminal.printError("demo: \(error)")
            return 1
        }
        let api = APIClient(baseURL: arguments.api, timeout: arguments.apiTimeout)
        let reachability: any NetworkReachability = arguments.offline ? Offline() : AssumeReachable()
        // Orders created offline get short identifiers, like the sample API's, easy to type back.
        let local = OrdersSQLiteStore(
            database: database, makeID: { String(UUID().uuidString.prefix(8)).lowercased() })
        let orders = FallbackOrdersStore(
            api: OrdersAPI(client: api), cache: local, reachability: reachability)
        let formatter = OrderFormatter(currencyCode: "USD")
        switch arguments.command {
        case .melodies:
            return await Screens.melodies(
                LiveMelodyService(api: api, database: database, reachability: reachability), arguments,
                terminal)
        case .listOrders:
            return await Screens.orders(OrdersWorker(ordersStore: orders), formatter, arguments, terminal)
        case .showOrder(let id):
            return await Screens.order(id, OrdersWorker(ordersStore: orders), formatter, terminal)
        case .createOrder(let order):
            return await Screens.create(order, OrdersWorker(ordersStore: orders), formatter, terminal)
        case .deleteOrder(let id):
            return await Screens.delete(id, OrdersWorker(ordersStore: orders), formatter, terminal)
        case .syncOrders:
            return await SyncScreen.sync(orders, arguments, terminal)
        case .retryOrder(let id):
            return await SyncScreen.retry(id, orders, arguments, terminal)
        case .discardOrder(let id):
            return await SyncScreen.discard(id, orders, terminal)
        case .help, .version, .exportSampleAPI:
            return 0
        }
    }

    /// Writes the sample API's files, for `python3 -m http.server`.
    static func export(to folder: String, _ terminal: Terminal) -> Int32 {
        do {
            try SampleAPI.write(to: URL(fileURLWithPath: folder))
            terminal.print("Wrote the sample API to \(folder)")
            return 0
        } catch {
            terminal.printError(
                "demo: cannot write the sample API to \(folder): \(error.localizedDescription)")
            return 1
        }
    }
}

/// Never tries the network: `--offline`.
struct Offline: NetworkReachability {
    var isReachable: Bool { false }
}
