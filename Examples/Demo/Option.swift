import Foundation
import Orders
import Services

/// One option of the demo's command line, written once: its name, the value it takes, its help,
/// and how its value is read. The usage text, the parser and the messages that name an option
/// all come from ``all``.
struct Option: Sendable {
    /// What an option does with its value.
    enum Use: Sendable {
        /// Takes no value: `--offline`.
        case flag
        /// Takes a value that any command may use: `--api URL`.
        case setting
        /// Fills part of the order of `orders create`; `required` ones are in the synopsis without
        /// brackets; one that `repeats` reads every value given, another only the last. `read` puts
        /// a value into the order, or throws a ``UsageError``.
        case order(
            required: Bool, repeats: Bool, field: OrderField?,
            read: @Sendable (inout Order, String) throws -> Void)
    }

    let name: String
    /// The value's placeholder in the usage text (`URL`), or empty for a flag.
    let value: String
    let use: Use
    /// The option's line in the usage text; empty for the order's parts, which the synopsis shows.
    let help: String

    var takesValue: Bool {
        if case .flag = use { false } else { true }
    }

    var isOrderPart: Bool {
        if case .order = use { true } else { false }
    }

    /// `--refresh`'s default, as the help text writes it.
    private static let refreshDefault = Int(Arguments.defaultRefresh)

    /// Every option, in the order the usage text lists them.
    static let all: [Option] = [
        Option(
            name: "--api", value: "URL", use: .setting,
            help: """
                the API (default: $DEMO_API_URL, else \(Arguments.defaultAPI)); a request may take
                $DEMO_API_TIMEOUT seconds, else 10
                """),
        Option(
            name: "--database", value: "PATH", use: .setting,
            help: "the local database (default: in your data folder)"),
        Option(name: "--offline", value: "", use: .flag, help: "do not try the API"),
        Option(
            name: "--count", value: "", use: .flag,
            help: "with 'orders': how many orders this device keeps (of --customer ID)"),
        Option(
            name: "--storage-budget", value: "SIZE", use: .setting,
            help: """
                keep at most SIZE of the shop's orders and customers here (500kB, 2MB, or bytes;
                default: $DEMO_STORAGE_BUDGET, else no bound); what waits to be sent always stays
                """),
        Option(
            name: "--refresh", value: "N", use: .setting,
            help:
                "with 'orders watch': poll every N s while the API pushes nothing (default: \(refreshDefault))"
        ),
        Option(
            name: "--cache", value: "POLICY", use: .setting,
            help: "how melodies and orders are read: \(CachePolicyName.help)"),
        Option(
            name: "--keep-mine", value: "", use: .flag,
            help: "with 'orders resolve': keep this device's change"),
        Option(
            name: "--keep-theirs", value: "", use: .flag, help: "with 'orders resolve': keep the shop's copy"),
        Option(name: "--user", value: "NAME", use: .setting, help: "with 'login': the account that signs in"),
        Option(
            name: "--to", value: "PATH", use: .setting,
            help: "with 'orders attachment': where the file is written"),
        Option(
            name: "--name", value: "NAME", use: .setting, help: "with 'customers create': the customer's name"
        ),
        Option(
            name: "--erase", value: "", use: .flag,
            help: "with 'logout': erase the account's orders, customers and unsent changes here"),
        Option(
            name: "--json", value: "", use: .flag,
            help: "with 'status': the same as JSON, for support (no body, token or card number)"),
        Option(
            name: "--hand-off", value: "", use: .flag,
            help: "with 'sync': hand changes to the transfer service ('transfers run')"),
        Option(name: "--help", value: "", use: .flag, help: "show this help"),
        Option(name: "--version", value: "", use: .flag, help: "show the version"),
        order("--first-name", "NAME", .firstName) { $0.firstName = $1 },
        order("--last-name", "NAME", .lastName) { $0.lastName = $1 },
        order("--email", "EMAIL", .email) { $0.email = $1 },
        order("--street", "STREET", .shipmentAddress) { $0.setAddress(\.street1, $1) },
        order("--city", "CITY", .shipmentAddress) { $0.setAddress(\.city, $1) },
        order("--zip", "ZIP", .shipmentAddress) { $0.setAddress(\.zip, $1) },
        order("--card", "NUMBER", .creditCardNumber) { $0.paymentMethod.creditCardNumber = $1 },
        order("--expires", "YYYY-MM", .expirationDate) { $0.paymentMethod.expirationDate = try month($1) },
        order("--cvv", "CVV", .cvv) { $0.paymentMethod.cvv = $1 },
        order("--item", "NAME:QUANTITY:PRICE", .items, repeats: true) { $0.items.append(try item($1)) },
        order("--state", "STATE", nil, required: false) { $0.setAddress(\.state, $1) },
        order("--phone", "PHONE", nil, required: false) { $0.phone = $1 },
        // Any customer this device shows (`demo customers`), sent to the shop or not; never blank.
        order("--customer", "ID", nil, required: false) { order, id in
            guard !id.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw UsageError(message: "say which customer: --customer ID ('demo customers' lists them)")
            }
            order.customerID = id
        },
        order("--shipping", "standard|two-day|one-day", nil, required: false) {
            $0.shipmentMethod = ShipmentMethod(speed: try speed($1))
        },
    ]

    /// The option named `name` (`-h` is `--help`), or `nil`.
    static func named(_ name: String) -> Option? {
        let name = name == "-h" ? "--help" : name
        return all.first { $0.name == name }
    }

    /// The options that fill `field` of an order, as `--street/--city/--zip`.
    static func names(for field: OrderField) -> String {
        all.filter {
            if case .order(_, _, field, _) = $0.use { true } else { false }
        }
        .map(\.name).joined(separator: "/")
    }

    private static func order(
        _ name: String, _ value: String, _ field: OrderField?, required: Bool = true, repeats: Bool = false,
        read: @escaping @Sendable (inout Order, String) throws -> Void
    ) -> Option {
        Option(
            name: name, value: value,
            use: .order(required: required, repeats: repeats, field: field, read: read),
            help: "")
    }

    /// `--expires`: a month as YYYY-MM.
    private static func month(_ text: String) throws -> Date {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        guard parts.count == 2, (1...12).contains(parts[1]),
            let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: 1))
        else { throw UsageError(message: "--expires takes a month as YYYY-MM, such as 2030-01") }
        return date
    }

    /// `--shipping`: standard, two-day or one-day.
    private static func speed(_ text: String) throws -> ShipmentMethod.ShippingSpeed {
        switch text {
        case "standard": .standard
        case "two-day": .twoDay
        case "one-day": .oneDay
        default: throw UsageError(message: "--shipping takes standard, two-day or one-day, not '\(text)'")
        }
    }

    /// `--item`: NAME:QUANTITY:PRICE.
    private static func item(_ text: String) throws -> OrderItem {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let quantity = Int(parts[1]), let price = Arguments.price(parts[2]) else {
            throw UsageError(
                message: "--item takes NAME:QUANTITY:PRICE, such as 'Apple:2:1.23', not '\(text)'")
        }
        return OrderItem(name: parts[0], quantity: quantity, unitPrice: price)
    }
}

/// The names `--cache` takes, each written once: the parser, its message and the help use them.
enum CachePolicyName {
    static let fixed: [(name: String, policy: CachePolicy, help: String)] = [
        ("network-first", .networkFirst, " (the default)"),
        (
            "cache-first", .cacheFirst(maxAge: 60),
            "[=SECONDS] (the local copy while younger, 60 s by default)"
        ),
        ("cache-then-network", .cacheThenNetwork, " (the local copy at once, then the API's)"),
        ("network-only", .networkOnly, ""),
        ("cache-only", .cacheOnly, ""),
    ]

    /// "network-first, cache-first[=SECONDS], ... or cache-only".
    static var list: String {
        let names = fixed.map { $0.name == "cache-first" ? "cache-first[=SECONDS]" : $0.name }
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    /// Each name with what it does, for the usage text.
    static var help: String {
        fixed.map { $0.name + $0.help }.joined(separator: ",\n")
    }

    /// The policy `text` names: one of ``fixed``, or `cache-first=SECONDS`.
    static func policy(_ text: String) throws -> CachePolicy {
        if let named = fixed.first(where: { $0.name == text }) { return named.policy }
        if text.hasPrefix("cache-first=") {
            guard let seconds = Double(text.dropFirst("cache-first=".count)), seconds >= 0, seconds.isFinite
            else {
                throw UsageError(
                    message: "--cache cache-first=SECONDS takes a number of seconds, not '\(text)'")
            }
            return .cacheFirst(maxAge: seconds)
        }
        throw UsageError(message: "--cache takes \(list), not '\(text)'")
    }
}

extension Order {
    /// Sets one part of the address the order is shipped and billed to.
    fileprivate mutating func setAddress(_ part: WritableKeyPath<Address, String>, _ value: String) {
        shipmentAddress[keyPath: part] = value
        billingAddress[keyPath: part] = value
    }
}
