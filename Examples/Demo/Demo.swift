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
        case .melodies:
            guard let app = await App.open(arguments, terminal) else { return 1 }
            return await Screens.melodies(
                LiveMelodyService(api: app.api, database: app.database, reachability: app.reachability),
                arguments, terminal)
        case .watchMelodies:
            guard let app = await App.open(arguments, terminal) else { return 1 }
            return await WatchScreen.melodies(
                LiveMelodyService(api: app.api, database: app.database, reachability: app.reachability),
                arguments, terminal)
        case .listOrders:
            guard let app = await App.open(arguments, terminal) else { return 1 }
            return await Screens.orders(app, arguments, terminal)
        case .watchOrders:
            guard let app = await App.open(arguments, terminal) else { return 1 }
            return await WatchScreen.orders(app, arguments, terminal)
        case .showOrder(let id):
            guard let app = await App.open(arguments, terminal) else { return 1 }
            return await Screens.order(id, app.worker, app.formatter, terminal)
        case .createOrder(let order):
            guard let app = await App.open(arguments, terminal) else { return 1 }
            return await Screens.create(order, app.worker, app.formatter, terminal)
        case .updateOrder(let id, let changes):
            guard let app = await App.open(arguments, terminal) else { return 1 }
            return await Screens.update(id, changes, app.worker, app.formatter, terminal)
        case .resolveOrder(let id, let keeping):
            guard let app = await App.open(arguments, terminal) else { return 1 }
            return await SyncScreen.resolve(id, keeping, app.orders, arguments, terminal)
        case .deleteOrder(let id):
            guard let app = await App.open(arguments, terminal) else { return 1 }
            return await Screens.delete(id, app.worker, app.formatter, terminal)
        case .syncOrders:
            guard let app = await App.open(arguments, terminal) else { return 1 }
            if let signedOut = await SignInScreen.signedOutMessage(app) {
                terminal.printError("demo: \(signedOut)")
                return 1
            }
            return await SyncScreen.sync(app.orders, arguments, terminal)
        case .retryOrder(let id):
            guard let app = await App.open(arguments, terminal) else { return 1 }
            return await SyncScreen.retry(id, app.orders, arguments, terminal)
        case .discardOrder(let id):
            guard let app = await App.open(arguments, terminal) else { return 1 }
            return await SyncScreen.discard(id, app.orders, terminal)
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
        let signsIn = signedIn ? true : await Self.hasSignedIn(database)
        let plain = APIClient(baseURL: arguments.api, timeout: arguments.apiTimeout)
        let api = signsIn ? plain.authorized(by: credentials) : plain
        let reachability: any ConnectivityMonitor = arguments.offline ? Offline() : AssumeReachable()
        // Orders created offline get short identifiers, like the sample API's, easy to type back.
        let local = OrdersSQLiteStore(
            database: database, makeID: { String(UUID().uuidString.prefix(8)).lowercased() })
        let orders = FallbackOrdersStore(
            api: OrdersAPI(client: api), cache: local, reachability: reachability)
        return App(
            database: database, api: api, credentials: signsIn ? credentials : nil,
            reachability: reachability, orders: orders,
            worker: OrdersWorker(ordersStore: orders))
    }
}

extension App {
    /// Whether changes of a signed-in account wait in `database`: then the shop is one that signs
    /// in, signed out now. (No outbox yet: none.)
    static func hasSignedIn(_ database: Database) async -> Bool {
        let count = try? await database.read { connection in
            try connection.scalar("SELECT count(*) FROM outbox WHERE account IS NOT NULL")
        }.value
        return count != nil && count != .integer(0)
    }
}

/// Never tries the network: `--offline`.
struct Offline: ConnectivityMonitor {
    var isReachable: Bool { false }
}
