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

    /// The verbs of `demo orders` and whether each names an order.
    static let orderVerbs: [(verb: String, takesID: Bool)] = [
        ("list", false), ("show", true), ("delete", true), ("sync", false), ("retry", true),
        ("discard", true),
    ]

    /// The help text, made from ``Option/all`` and ``orderVerbs``.
    static var usage: String {
        let verbs = orderVerbs.map { $0.takesID ? "\($0.verb) ID" : $0.verb }.joined(separator: " | ")
        let orderParts = Option.all.compactMap { option -> String? in
            guard case .order(let required, let repeats, _, _) = option.use else { return nil }
            let part = "\(option.name) \(option.value)" + (repeats ? " [\(option.name) ...]" : "")
            return required ? part : "[\(part)]"
        }
        let synopsis = wrapped(orderParts + ["[options]"], width: 84, indent: 12)
        let options = Option.all.filter { !$0.isOrderPart }.map { option in
            let head =
                "  " + (option.name + " " + option.value).padding(toLength: 17, withPad: " ", startingAt: 0)
            return head
                + option.help.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: 19))
        }
        return """
            usage: demo melodies [options]
                   demo orders [\(verbs)] [options]
                   demo orders create \(synopsis)
                   demo export-sample-api FOLDER

            Shows melodies or orders from the API, or from the local database when the API cannot be
            reached. An order created, changed or deleted while the API cannot be reached is saved in
            the local database and sent when it can: at the next online listing, or with 'orders sync'
            (exit 1 when the shop refused a change). 'orders retry ID' sends a refused change again,
            'orders discard ID' drops it. 'export-sample-api FOLDER' writes a sample API to serve with
            'python3 -m http.server'.

            options:
            \(options.joined(separator: "\n"))

            exit codes: 0 done, 1 failed (the message says why), 2 wrong command line (bad syntax, or
            a value an order cannot take)
            """
    }

    /// `words` joined with spaces, broken before `width` columns, continued lines indented.
    private static func wrapped(_ words: [String], width: Int, indent: Int) -> String {
        var lines = [""]
        for word in words {
            let last = lines[lines.count - 1]
            if !last.isEmpty && last.count + 1 + word.count > width - indent {
                lines.append(word)
            } else {
                lines[lines.count - 1] = last.isEmpty ? word : last + " " + word
            }
        }
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }

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
        return try make(try command(positional, values), values, flags, environment)
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func command(_ positional: [String], _ values: [String: [String]]) throws -> Command {
        let command: Command
        switch positional {
        case ["melodies"]: command = .melodies
        case ["orders"]: command = .listOrders
        case ["orders", "create"]: return .createOrder(try order(values))
        case let words where words.count == 2 && words[0] == "export-sample-api":
            return .exportSampleAPI(folder: words[1])
        case let words where words.first == "orders" && words.count >= 2:
            guard let verb = orderVerbs.first(where: { $0.verb == words[1] }) else { fallthrough }
            switch (verb.takesID, words.count) {
            case (false, 2): command = try orderCommand(verb.verb, id: "")
            case (true, 3): command = try orderCommand(verb.verb, id: try id(words))
            case (true, 2): throw UsageError(message: "say which order: demo orders \(verb.verb) ID")
            default: throw UsageError(message: "unknown command '\(words.joined(separator: " "))'")
            }
        case []: throw UsageError(message: "say what to show: melodies or orders")
        default: throw UsageError(message: "unknown command '\(positional.joined(separator: " "))'")
        }
        let orderParts = Option.all.filter(\.isOrderPart).map(\.name)
        if let option = orderParts.first(where: { values[$0] != nil }) {
            throw UsageError(message: "\(option) only goes with 'orders create'")
        }
        return command
    }

    /// The command of `orders VERB [ID]`, for a verb of ``orderVerbs``.
    private static func orderCommand(_ verb: String, id: String) throws -> Command {
        switch verb {
        case "list": .listOrders
        case "show": .showOrder(id: id)
        case "delete": .deleteOrder(id: id)
        case "sync": .syncOrders
        case "retry": .retryOrder(id: id)
        case "discard": .discardOrder(id: id)
        default: throw UsageError(message: "unknown command 'orders \(verb)'")
        }
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
            cachePolicy: try values["--cache"]?.last.map(CachePolicyName.policy) ?? .networkFirst,
            apiTimeout: environment["DEMO_API_TIMEOUT"].flatMap(Double.init).map { max(1, $0) } ?? 10)
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
