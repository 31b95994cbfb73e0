import Foundation
import Orders
import Services

/// A command line the demo cannot run: said in one line, exit code 2.
struct UsageError: Error {
    let message: String
}

/// What the command line asks for.
struct Arguments {
    enum Command {
        case melodies
        case listOrders
        case showOrder(id: String)
        case createOrder(Order)
        case deleteOrder(id: String)
        case syncOrders
        case retryOrder(id: String)
        case discardOrder(id: String)
        case exportSampleAPI(folder: String)
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

    static let version = "demo 1.0.0 (PromiseMVP)"

    static let defaultAPI = "http://127.0.0.1:8080/"

    static let usage = """
        usage: demo melodies [options]
               demo orders [list | show ID | delete ID | sync | retry ID | discard ID] [options]
               demo orders create --first-name NAME --last-name NAME --email EMAIL --street STREET
                    --city CITY --zip ZIP --card NUMBER --expires YYYY-MM --cvv CVV
                    --item NAME:QUANTITY:PRICE [--item ...] [--state STATE] [--phone PHONE]
                    [--shipping standard|two-day|one-day] [options]

        Shows melodies or orders from the API, or from the local database when the API cannot be
        reached. An order created, changed or deleted while the API cannot be reached is saved in
        the local database and sent when it can: at the next online listing, or with 'orders sync'
        (exit 1 when the shop refused a change). 'orders retry ID' sends a refused change again,
        'orders discard ID' drops it.

        options:
          --api URL        the API (default: $DEMO_API_URL, else \(defaultAPI)); a request may take
                           $DEMO_API_TIMEOUT seconds, else 10
          --database PATH  the local database (default: in your data folder)
          --offline        do not try the API
          --cache POLICY   how melodies and orders are read: network-first (the default),
                           cache-first[=SECONDS] (the local copy while younger, 60 s by default),
                           cache-then-network (the local copy at once, then the API's),
                           network-only, cache-only
          --help           show this help
          --version        show the version

        exit codes: 0 done, 1 failed (the message says why), 2 wrong command line (bad syntax, or
        a value an order cannot take)
        """

    /// The option that fills `field` in `demo orders create`.
    static func option(for field: OrderField) -> String {
        switch field {
        case .firstName: "--first-name"
        case .lastName: "--last-name"
        case .email: "--email"
        case .shipmentAddress: "--street/--city/--zip"
        case .creditCardNumber: "--card"
        case .expirationDate: "--expires"
        case .cvv: "--cvv"
        case .items: "--item"
        }
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
            switch name {
            case "--help", "-h", "--version", "--offline":
                guard inline == nil else { throw UsageError(message: "\(name) takes no value") }
                flags.insert(name == "-h" ? "--help" : name)
            case _ where valueOptions.contains(name):
                guard let value = inline ?? remaining.popFirst(), inline != nil || !value.hasPrefix("--")
                else {
                    throw UsageError(message: "\(name) needs a value")
                }
                values[name, default: []].append(value)
            default:
                throw UsageError(message: "unknown option '\(name)'")
            }
        }
        if flags.contains("--help") { return try make(.help, values, flags, environment) }
        if flags.contains("--version") { return try make(.version, values, flags, environment) }
        return try make(try command(positional, values), values, flags, environment)
    }

    private static let valueOptions: Set<String> = [
        "--api", "--database", "--cache", "--first-name", "--last-name", "--email", "--phone", "--street",
        "--city",
        "--state",
        "--zip", "--card", "--expires", "--cvv", "--shipping", "--item",
    ]

    private static let orderOptions = valueOptions.subtracting(["--api", "--database", "--cache"])

    private static func split(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func command(_ positional: [String], _ values: [String: [String]]) throws -> Command {
        let usedOrderOptions = Set(values.keys).intersection(orderOptions)
        let command: Command
        switch positional {
        case ["melodies"]: command = .melodies
        case ["orders"], ["orders", "list"]: command = .listOrders
        case let words where words.count == 3 && words[0] == "orders" && words[1] == "show":
            command = .showOrder(id: try id(words))
        case let words where words.count == 3 && words[0] == "orders" && words[1] == "delete":
            command = .deleteOrder(id: try id(words))
        case ["orders", "sync"]: command = .syncOrders
        case let words where words.count == 3 && words[0] == "orders" && words[1] == "retry":
            command = .retryOrder(id: try id(words))
        case let words where words.count == 3 && words[0] == "orders" && words[1] == "discard":
            command = .discardOrder(id: try id(words))
        case ["orders", "create"]: return .createOrder(try order(values))
        case let words where words.count == 2 && words[0] == "export-sample-api":
            return .exportSampleAPI(folder: words[1])
        case ["orders", "show"], ["orders", "delete"], ["orders", "retry"], ["orders", "discard"]:
            throw UsageError(message: "say which order: demo \(positional.joined(separator: " ")) ID")
        case []: throw UsageError(message: "say what to show: melodies or orders")
        default: throw UsageError(message: "unknown command '\(positional.joined(separator: " "))'")
        }
        if let option = usedOrderOptions.sorted().first {
            throw UsageError(message: "\(option) only goes with 'orders create'")
        }
        return command
    }

    /// The order identifier in `orders VERB ID`, not blank; as the demo shows identifiers
    /// (control characters escaped, ``Terminal/escaped(_:)``), so one copied from the screen
    /// names its order.
    private static func id(_ words: [String]) throws -> String {
        let id = Terminal.unescaped(words[2])
        guard !id.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw UsageError(message: "say which order: demo orders \(words[1]) ID")
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
        return Arguments(
            command: command, api: api, database: database ?? defaultDatabase(), offline: offline,
            cachePolicy: try values["--cache"]?.last.map(cachePolicy) ?? .networkFirst,
            apiTimeout: environment["DEMO_API_TIMEOUT"].flatMap(Double.init).map { max(1, $0) } ?? 10)
    }

    /// `--cache`: network-first, cache-first[=SECONDS] (60 by default), cache-then-network,
    /// network-only or cache-only.
    static func cachePolicy(_ text: String) throws -> CachePolicy {
        switch text {
        case "network-first": return .networkFirst
        case "cache-then-network": return .cacheThenNetwork
        case "network-only": return .networkOnly
        case "cache-only": return .cacheOnly
        case "cache-first": return .cacheFirst(maxAge: 60)
        case _ where text.hasPrefix("cache-first="):
            guard let seconds = Double(text.dropFirst("cache-first=".count)), seconds >= 0, seconds.isFinite
            else {
                throw UsageError(
                    message: "--cache cache-first=SECONDS takes a number of seconds, not '\(text)'")
            }
            return .cacheFirst(maxAge: seconds)
        default:
            throw UsageError(
                message:
                    "--cache takes network-first, cache-first[=SECONDS], cache-then-network, network-only or cache-only, not '\(text)'"
            )
        }
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

    /// A price written as a whole decimal number with at most two decimals (`3`, `3.5`, `3.50`);
    /// `nil` for anything else (`3,50`, `0x10`, `3.5abc`, `1e3`).
    static func price(_ text: String) -> Decimal? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, (1...10).contains(whole.count), whole.allSatisfy(\.isASCIIDigit)
        else { return nil }
        if parts.count == 2 {
            guard (1...2).contains(parts[1].count), parts[1].allSatisfy(\.isASCIIDigit) else { return nil }
        }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    private static func order(_ values: [String: [String]]) throws -> Order {
        func value(_ name: String) -> String { values[name]?.last ?? "" }
        let expires = value("--expires")
        let expiration: Date
        if expires.isEmpty {
            expiration = Date(timeIntervalSince1970: 0)
        } else {
            let parts = expires.split(separator: "-").compactMap { Int($0) }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
            guard parts.count == 2, (1...12).contains(parts[1]),
                let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: 1))
            else { throw UsageError(message: "--expires takes a month as YYYY-MM, such as 2030-01") }
            expiration = date
        }
        let speed: ShipmentMethod.ShippingSpeed
        switch value("--shipping") {
        case "", "standard": speed = .standard
        case "two-day": speed = .twoDay
        case "one-day": speed = .oneDay
        case let other:
            throw UsageError(message: "--shipping takes standard, two-day or one-day, not '\(other)'")
        }
        let items = try (values["--item"] ?? []).map { text -> OrderItem in
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, let quantity = Int(parts[1]), let price = price(parts[2]) else {
                throw UsageError(
                    message: "--item takes NAME:QUANTITY:PRICE, such as 'Apple:2:1.23', not '\(text)'")
            }
            return OrderItem(name: parts[0], quantity: quantity, unitPrice: price)
        }
        let address = Address(
            street1: value("--street"), city: value("--city"), state: value("--state"), zip: value("--zip"))
        return Order(
            date: Date(), email: value("--email"), firstName: value("--first-name"),
            lastName: value("--last-name"),
            phone: value("--phone"), billingAddress: address, shipmentAddress: address,
            paymentMethod: PaymentMethod(
                creditCardNumber: value("--card"), expirationDate: expiration, cvv: value("--cvv")),
            shipmentMethod: ShipmentMethod(speed: speed), items: items, total: 0)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool {
        isASCII && isNumber
    }
}
