import Foundation
import OfflineKit
import Orders
import Services

/// A command line the demo cannot run: said in one line, exit code 2.
struct UsageError: Error {
    let message: String

    /// The line the demo prints for it.
    var line: String { "demo: \(message) (see demo --help)" }
}

/// What the command line asks for.
struct Arguments {
    enum Command {
        case melodies
        case watchMelodies
        case listOrders
        case watchOrders
        case showOrder(id: String)
        case createOrder(Order)
        case updateOrder(id: String, changes: [String: [String]])
        case resolveOrder(id: String, keeping: Outbox.Keeping)
        case deleteOrder(id: String)
        case syncOrders
        case retryOrder(id: String)
        case discardOrder(id: String)
        case attachFile(orderID: String, path: String)
        case saveAttachment(orderID: String, name: String, path: String)
        case listCustomers
        case createCustomer(Customer)
        case retryCustomer(id: String)
        case discardCustomer(id: String)
        case syncAll
        case runTransfers
        case exportSampleAPI(folder: String)
        case login(user: String)
        case logout(erase: Bool)
        case whoami
        case status(json: Bool)
        case help
        case version
    }

    var command: Command
    var api: URL
    var database: URL
    var offline: Bool
    var cachePolicy: CachePolicy = .networkFirst
    /// How long a request may take, in seconds: `DEMO_API_TIMEOUT`, else 10.
    var apiTimeout: Double = 10
    /// With `orders watch`: the seconds between two refreshes of the list from the API.
    var refresh: Double = Arguments.defaultRefresh
    static let defaultRefresh = 30.0
    /// With `orders`: list only the orders of this customer kept here (`--customer ID`).
    var customer: String?
    /// With `orders`: say how many orders are kept here, not list them (`--count`).
    var countOnly = false
    /// The most bytes the shop's copy may take here (`--storage-budget`, `DEMO_STORAGE_BUDGET`);
    /// `nil` for no bound.
    var storageBudget: Int?
    /// With `sync` and `orders sync`: hand the changes to the transfer service instead of sending
    /// them (`--hand-off`).
    var handOff = false

    static let version = "demo 1.0.0 (PromiseMVP)"

    static let defaultAPI = "http://127.0.0.1:8080/"

    /// The verbs of `demo orders` and whether each names an order.
    static let orderVerbs: [(verb: String, takesID: Bool)] = [
        ("list", false), ("watch", false), ("show", true), ("update", true), ("delete", true),
        ("sync", false),
        ("retry", true), ("discard", true), ("resolve", true),
    ]

    /// The option that fills `field` in `demo orders create`.
    static func option(for field: OrderField) -> String {
        Option.names(for: field)
    }

    static func parse(_ arguments: [String], environment: [String: String]) throws -> Arguments {
        var positional: [String] = []
        var values: [String: [String]] = [:]
        var flags: Set<String> = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("-") else {
                positional.append(argument)
                continue
            }
            let (name, inline) = split(argument)
            guard let option = Option.named(name) else {
                throw UsageError(message: "unknown option '\(name)'")
            }
            if option.takesValue {
                guard let value = inline ?? remaining.popFirst(), inline != nil || !value.hasPrefix("--")
                else {
                    throw UsageError(message: "\(name) needs a value")
                }
                values[option.name, default: []].append(value)
            } else {
                guard inline == nil else { throw UsageError(message: "\(name) takes no value") }
                flags.insert(option.name)
            }
        }
        if flags.contains("--help") { return try make(.help, values, flags, environment) }
        if flags.contains("--version") { return try make(.version, values, flags, environment) }
        let keeping = [("--keep-mine", Outbox.Keeping.mine), ("--keep-theirs", .theirs)].filter {
            flags.contains($0.0)
        }
        if positional.count == 3, positional[0] == "orders", positional[1] == "resolve" {
            guard keeping.count == 1 else {
                throw UsageError(
                    message: "say which side to keep: demo orders resolve ID --keep-mine | --keep-theirs")
            }
            let command = Command.resolveOrder(id: try id(positional), keeping: keeping[0].1)
            return try make(command, values, flags, environment)
        }
        if let flag = keeping.first?.0 {
            throw UsageError(message: "\(flag) only goes with 'orders resolve ID'")
        }
        if positional == ["status"] {
            return try make(.status(json: flags.contains("--json")), values, flags, environment)
        }
        if flags.contains("--json") { throw UsageError(message: "--json only goes with 'status'") }
        if positional == ["logout"] {
            return try make(.logout(erase: flags.contains("--erase")), values, flags, environment)
        }
        if flags.contains("--erase") { throw UsageError(message: "--erase only goes with 'logout'") }
        if positional == ["login"] {
            guard let user = values["--user"]?.last, !user.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw UsageError(
                    message:
                        "say who signs in: demo login --user NAME (the password is read from standard input)")
            }
            return try make(.login(user: user), values, flags, environment)
        }
        if values["--user"] != nil { throw UsageError(message: "--user only goes with 'login'") }
        return try make(try command(positional, values), values, flags, environment)
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func command(_ positional: [String], _ values: [String: [String]]) throws -> Command {
        if values["--name"] != nil, positional != ["customers", "create"] {
            throw UsageError(message: "--name only goes with 'customers create'")
        }
        let command: Command
        switch positional {
        case ["melodies"]: command = .melodies
        case ["melodies", "watch"]: command = .watchMelodies
        case ["orders"], ["orders", "list"]:
            // The list can be of one customer's orders: --customer is not an order's part here.
            try refuseOrderParts(values, allowing: ["--customer"])
            return .listOrders
        case ["whoami"]: command = .whoami
        case ["orders", "create"]: return .createOrder(try order(values))
        case ["customers"], ["customers", "list"]: command = .listCustomers
        case ["customers", "create"]: return .createCustomer(try customer(values))
        case ["customers", "retry"], ["customers", "discard"]:
            throw UsageError(message: "say which customer: demo customers \(positional[1]) ID")
        case let words
        where words.count == 3 && words[0] == "customers" && ["retry", "discard"].contains(words[1]):
            let id = try id(words, naming: "customer")
            command = words[1] == "retry" ? .retryCustomer(id: id) : .discardCustomer(id: id)
        case ["sync"]: command = .syncAll
        case ["transfers", "run"]: command = .runTransfers
        case let words where words.count == 3 && words[0] == "orders" && words[1] == "update":
            return .updateOrder(
                id: try id(words), changes: values.filter { Option.named($0.key)?.isOrderPart == true })
        case let words where words.count == 4 && words[0] == "orders" && words[1] == "attachment":
            guard let path = values["--to"]?.last, !path.isEmpty else {
                throw UsageError(message: "say where to write it: demo orders attachment ID NAME --to PATH")
            }
            return .saveAttachment(orderID: try id(words), name: words[3], path: path)
        case let words
        where words.count < 4 && words.first == "orders" && words.dropFirst().first == "attachment":
            throw UsageError(message: "say which order and file: demo orders attachment ID NAME --to PATH")
        case let words where words.count == 4 && words[0] == "orders" && words[1] == "attach":
            return .attachFile(orderID: try id(words), path: words[3])
        case let words
        where words.count < 4 && words.first == "orders" && words.dropFirst().first == "attach":
            throw UsageError(message: "say which order and file: demo orders attach ID FILE")
        case let words where words.count == 2 && words[0] == "export-sample-api":
            return .exportSampleAPI(folder: words[1])
        case let words where words.first == "orders" && words.count >= 2:
            guard let verb = orderVerbs.first(where: { $0.verb == words[1] }) else {
                throw UsageError(message: "unknown command '\(words.joined(separator: " "))'")
            }
            switch (verb.takesID, words.count) {
            case (false, 2): command = try orderCommand(verb.verb, id: "")
            case (true, 3): command = try orderCommand(verb.verb, id: try id(words))
            case (true, 2): throw UsageError(message: "say which order: demo orders \(verb.verb) ID")
            default: throw UsageError(message: "unknown command '\(words.joined(separator: " "))'")
            }
        case []: throw UsageError(message: "say what to show: melodies, orders or customers")
        default: throw UsageError(message: "unknown command '\(positional.joined(separator: " "))'")
        }
        try refuseOrderParts(values)
        return command
    }

    /// The command of `orders VERB [ID]`, for a verb of ``orderVerbs``.
    private static func orderCommand(_ verb: String, id: String) throws -> Command {
        switch verb {
        case "list": .listOrders
        case "watch": .watchOrders
        case "show": .showOrder(id: id)
        case "delete": .deleteOrder(id: id)
        case "sync": .syncOrders
        case "retry": .retryOrder(id: id)
        case "discard": .discardOrder(id: id)
        // `update` and `resolve` take more than an id: `command(_:_:)` and `parse` read them.
        default: throw UsageError(message: "unknown command 'orders \(verb)'")
        }
    }

    /// The order identifier in `orders VERB ID`, not blank; as the demo shows identifiers
    /// (control characters escaped, ``Terminal/escaped(_:)``), so one copied from the screen
    /// names its order.
    private static func id(_ words: [String], naming noun: String = "order") throws -> String {
        let id = Terminal.unescaped(words[2])
        guard !id.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw UsageError(message: "say which \(noun): demo \(words[0]) \(words[1]) ID")
        }
        return id
    }

    private static func make(
        _ command: Command, _ values: [String: [String]], _ flags: Set<String>,
        _ environment: [String: String]
    ) throws -> Arguments {
        let offline = flags.contains("--offline")
        let api: URL
        switch (values["--api"]?.last, environment["DEMO_API_URL"]) {
        case (let given?, _):
            api = try apiURL(given)
        case (nil, let fromEnvironment?):
            // The environment is not this command line: when the API is not used, a bad value
            // there must not stop --help, --version or --offline.
            switch command {
            case .help, .version: api = try apiURL(defaultAPI)
            case _ where offline: api = try (try? apiURL(fromEnvironment)) ?? apiURL(defaultAPI)
            default: api = try apiURL(fromEnvironment)
            }
        case (nil, nil):
            api = try apiURL(defaultAPI)
        }
        let database = try values["--database"]?.last.map { path -> URL in
            guard !path.isEmpty else { throw UsageError(message: "--database needs a path") }
            return URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        }
        var listsOrders = false
        if case .listOrders = command { listsOrders = true }
        if flags.contains("--count"), !listsOrders {
            throw UsageError(message: "--count only goes with 'orders'")
        }
        let customer = listsOrders ? values["--customer"]?.last.map(Terminal.unescaped) : nil
        var syncs = false
        if case .syncAll = command { syncs = true }
        if case .syncOrders = command { syncs = true }
        if flags.contains("--hand-off"), !syncs {
            throw UsageError(message: "--hand-off only goes with 'sync' and 'orders sync'")
        }
        var arguments = Arguments(
            command: command, api: api, database: database ?? defaultDatabase(), offline: offline,

            cachePolicy: try values["--cache"]?.last.map(CachePolicyName.policy) ?? .networkFirst,
            apiTimeout: environment["DEMO_API_TIMEOUT"].flatMap(Double.init).map { max(1, $0) } ?? 10,
            refresh: try values["--refresh"]?.last.map(refreshSeconds) ?? defaultRefresh,
            customer: customer, countOnly: flags.contains("--count"),
            storageBudget: try (values["--storage-budget"]?.last ?? environment["DEMO_STORAGE_BUDGET"]).map(
                bytes))
        arguments.handOff = flags.contains("--hand-off")
        return arguments
    }

    /// The spool of the transfer service beside the database: `Transfers` in its folder.
    var transferSpool: TransferSpool {
        TransferSpool(folder: database.deletingLastPathComponent().appendingPathComponent("Transfers"))
    }

    /// The bytes of a size: a whole number, alone or followed by `kB` or `MB` (1,000s; any case).
    static func bytes(_ text: String) throws -> Int {
        let lowered = text.lowercased()
        let (digits, unit) =
            if lowered.hasSuffix("mb") { (lowered.dropLast(2), 1_000_000) } else if lowered.hasSuffix("kb") {
                (lowered.dropLast(2), 1_000)
            } else { (Substring(lowered), 1) }
        guard let count = Int(digits), count >= 0, count <= Int.max / unit else {
            throw UsageError(
                message:
                    "--storage-budget takes a size such as 500kB, 2MB or 1000000, not '\(Terminal.escaped(text))'"
            )
        }
        return count * unit
    }

    /// The seconds of `--refresh`: a number from 1 to a day.
    private static func refreshSeconds(_ text: String) throws -> Double {
        guard let seconds = Double(text), seconds >= 1, seconds <= 86_400 else {
            throw UsageError(message: "--refresh takes 1 to 86400 seconds, not '\(Terminal.escaped(text))'")
        }
        return seconds
    }

    private static func apiURL(_ text: String) throws -> URL {
        guard let api = URL(string: text.hasSuffix("/") ? text : text + "/"),
            let scheme = api.scheme?.lowercased(), scheme == "http" || scheme == "https", api.host != nil
        else {
            throw UsageError(message: "'\(URL.withoutCredentials(text))' is not an http or https URL")
        }
        return api
    }

    private static func defaultDatabase() -> URL {
        let folder =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".local/share")
        return folder.appendingPathComponent("promise-mvp-demo").appendingPathComponent("demo.sqlite")
    }

}
