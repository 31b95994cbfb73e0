import Foundation
import Melodies
import OfflineKit
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
            terminal.printError((error as? UsageError ?? UsageError(message: "\(error)")).line)
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
        case .login(let user):
            return await SignInScreen.login(user, arguments, terminal)
        case .logout(let erase):
            return await SignInScreen.logout(erase: erase, arguments, terminal)
        case .whoami:
            return SignInScreen.whoami(arguments, terminal)
        case .status(let json):
            return await withApp(arguments, terminal) { app in
                await StatusScreen.show(app.orders, json: json, budget: arguments.storageBudget, terminal)
            }
        case .melodies:
            return await withApp(arguments, terminal) { app in
                await Screens.melodies(
                    LiveMelodyService(api: app.api, database: app.database, reachability: app.reachability),
                    arguments, terminal)
            }
        case .watchMelodies:
            return await withApp(arguments, terminal) { app in
                await WatchScreen.melodies(
                    LiveMelodyService(api: app.api, database: app.database, reachability: app.reachability),
                    arguments, terminal)
            }
        case .listOrders:
            return await withApp(arguments, terminal) { app in
                await Screens.orders(app, arguments, terminal)
            }
        case .watchOrders:
            return await withApp(arguments, terminal) { app in
                await WatchScreen.orders(app, arguments, terminal)
            }
        case .showOrder(let id):
            return await withApp(arguments, terminal) { app in
                await Screens.order(id, app, terminal)
            }
        case .createOrder(let order):
            return await withApp(arguments, terminal) { app in
                await Screens.create(order, app, terminal)
            }
        case .updateOrder(let id, let changes):
            return await withApp(arguments, terminal) { app in
                await Screens.update(id, changes, app, terminal)
            }
        case .listCustomers:
            return await withApp(arguments, terminal) { app in
                await CustomersScreen.list(app.orders.customers, arguments, terminal)
            }
        case .createCustomer(let customer):
            return await withApp(arguments, terminal) { app in
                await CustomersScreen.create(customer, app.orders.customers, terminal)
            }
        case .retryCustomer(let id):
            return await withApp(arguments, terminal) { app in
                await CustomersScreen.retry(id, app.orders, arguments, terminal)
            }
        case .discardCustomer(let id):
            return await withApp(arguments, terminal) { app in
                await CustomersScreen.discard(id, app.orders, terminal)
            }
        case .resolveOrder(let id, let keeping):
            return await withApp(arguments, terminal) { app in
                await SyncScreen.resolve(id, keeping, app.orders, arguments, terminal)
            }
        case .deleteOrder(let id):
            return await withApp(arguments, terminal) { app in
                await Screens.delete(id, app.worker, app.formatter, terminal)
            }
        case .syncOrders, .syncAll:
            return await withApp(arguments, terminal) { app in
                if let signedOut = await SignInScreen.signedOutMessage(app) {
                    terminal.printError("demo: \(signedOut)")
                    return 1
                }
                if arguments.handOff { return await TransfersScreen.handOff(app.orders, terminal) }
                if case .syncAll = arguments.command {
                    return await SyncScreen.sync(app.orders, all: true, arguments, terminal)
                }
                return await SyncScreen.sync(app.orders, arguments, terminal)
            }
        case .runTransfers:
            return await TransfersScreen.run(arguments, terminal)
        case .retryOrder(let id):
            return await withApp(arguments, terminal) { app in
                await SyncScreen.retry(id, app.orders, arguments, terminal)
            }
        case .discardOrder(let id):
            return await withApp(arguments, terminal) { app in
                await SyncScreen.discard(id, app.orders, terminal)
            }
        case .attachFile(let id, let path):
            return await withApp(arguments, terminal) { app in
                await AttachmentsScreen.attach(path, to: id, app.orders, terminal)
            }
        case .saveAttachment(let id, let name, let path):
            return await withApp(arguments, terminal) { app in
                await AttachmentsScreen.save(name, of: id, to: path, app.orders, terminal)
            }
        }
    }

    /// Opens the app's stack, runs `command` with it, then says so when a sign-in renewed meanwhile
    /// could not be saved: the user is still signed in, and told plainly what could not be written.
    @MainActor
    static func withApp(
        _ arguments: Arguments, _ terminal: Terminal, _ command: (App) async -> Int32
    ) async -> Int32 {
        guard let app = await App.open(arguments, terminal) else { return 1 }
        let status = await command(app)
        if let failure = app.credentials?.keeperFailure { terminal.printError("demo: \(failure)") }
        // What the command listed or fetched may have gone over the budget: one pass before exit.
        if let bytes = arguments.storageBudget {
            do {
                let usage = try await app.orders.storageBudget(bytes: bytes).enforce().value
                if let over = usage.overBudget { terminal.printError("demo: \(over)") }
            } catch {
                terminal.printError(
                    "demo: the storage budget could not be kept: \(Screens.message(for: error))")
            }
        }
        return status
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

/// What the commands that show data share: the database (opened and seeded), the API client, and
/// the orders stack over both.
struct App {
    let database: Database
    let api: APIClient
    /// The shop's sign-in, when `demo login` made one here (signed in or signed out since).
    let credentials: OAuthCredentials?
    let reachability: any ConnectivityMonitor
    let orders: FallbackOrdersStore
    let worker: OrdersWorker
    let formatter = OrderFormatter(currencyCode: "USD")

    /// Opens the database `arguments` name and builds the stack, or says why not and gives `nil`.
    @MainActor
    static func open(_ arguments: Arguments, _ terminal: Terminal) async -> App? {
        let database: Database
        do {
            // Several demos may run at once on one file: each waits up to 30 s for the others'
            // writes, as a command-line tool may, rather than fail.
            database = try Database(at: arguments.database, busyTimeout: 30)
            try await Seeding.seedIfNeeded(database)
        } catch {
            terminal.printError("demo: \(error)")
            return nil
        }
        // Signed in (`demo login`), every request to the shop carries the account's token; a
        // shop that needs none is used as it is.
        let credentials = SignInScreen.credentials(arguments)
        let signedIn = credentials.account != nil
        let plain = APIClient(baseURL: arguments.api, timeout: arguments.apiTimeout)
        // Orders created offline get short identifiers, like the sample API's, easy to type back.
        let local = OrdersSQLiteStore(
            database: database, makeID: { String(UUID().uuidString.prefix(8)).lowercased() })
        let signsIn =
            signedIn
            ? true
            : await Self.hasSignedIn(FallbackOrdersStore(api: OrdersAPI(client: plain), cache: local))
        let api = signsIn ? plain.authorized(by: credentials) : plain
        let reachability: any ConnectivityMonitor = arguments.offline ? Offline() : AssumeReachable()
        // Changes handed to the transfer service (`sync --hand-off`) wait in a spool beside the
        // database: every command that syncs records the answers found there.
        let orders = FallbackOrdersStore(
            api: OrdersAPI(client: api), cache: local, reachability: reachability
        ).handingOff(to: arguments.transferSpool)
        return App(
            database: database, api: api, credentials: signsIn ? credentials : nil,
            reachability: reachability, orders: orders,
            worker: OrdersWorker(ordersStore: orders))
    }
}

extension App {
    /// Whether `orders` holds an account's data (its orders, or its changes waiting): then the
    /// shop is one that signs in, signed out now, and what is kept here is shown to nobody else.
    static func hasSignedIn(_ orders: FallbackOrdersStore) async -> Bool {
        if (try? await orders.owner().value) != nil { return true }
        return !((try? await orders.unsentChangesByAccount().value) ?? [:]).isEmpty
    }
}

/// Never tries the network: `--offline`.
struct Offline: ConnectivityMonitor {
    var isReachable: Bool { false }
}
