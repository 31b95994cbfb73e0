import Foundation
public import Orders

/// The shop's orders API, kept in memory, for ``TestHTTPServer``: what a real backend answers to
/// `GET`/`POST /orders` and `GET`/`PUT`/`DELETE /orders/{id}`, so that a store can be tested end to
/// end over a real socket.
///
/// Like a careful backend it honours `Idempotency-Key`: a write whose key it has seen is not
/// applied again, and gets the first answer again. Every order carries a `version` (`"1"`, then one
/// more per change); a PUT or DELETE whose `If-Match` names another is answered `412` with the
/// current order, and ``editOnServer(_:_:)`` and ``deleteOnServer(_:)`` change it as another
/// device would. It counts what it applied, so a test can check
/// that every change arrived exactly once, and it can refuse or fail on purpose.
///
/// ```swift
/// let shop = TestOrdersShop()
/// let server = try TestHTTPServer(responder: shop.respond)
/// ```
public final class TestOrdersShop: @unchecked Sendable {
    // `@unchecked Sendable` is sound: every stored `var` is only read or written while holding
    // `lock`, and `lock` is itself thread-safe.
    private let lock = NSLock()
    private var orders: [String: Order] = [:]
    private var nextID = 1
    private var answered: [String: (status: Int, body: String)] = [:]
    private var appliedWrites: [String] = []
    private var requestCount = 0
    private var refusals: [String: (status: Int, body: String)] = [:]
    private var flapping = false
    private var garbled: Set<String> = []
    private var lostAnswers: [String: TestHTTPServer.Reply] = [:]
    private var matchingRefusals:
        [(matches: @Sendable (TestHTTPServer.Request) -> Bool, status: Int, body: String)] = []

    /// Makes a shop holding `orders` (each with its `id`).
    ///
    /// - Parameter orders: The orders it starts with.
    public init(orders: [Order] = []) {
        for var order in orders {
            order.version = order.version ?? "1"
            self.orders[order.id ?? ""] = order
        }
    }

    /// Changes an order as another device would: `change` applies to it, and its version moves on.
    ///
    /// - Parameters:
    ///   - id: The order's identifier.
    ///   - change: What the other device changed.
    public func editOnServer(_ id: String, _ change: (inout Order) -> Void) {
        lock.withLock {
            guard var order = orders[id] else { return }
            change(&order)
            order.id = id
            order.version = Self.next(order.version)
            order.total = order.computedTotal
            orders[id] = order
        }
    }

    /// Deletes an order as another device would.
    ///
    /// - Parameter id: The order's identifier.
    public func deleteOnServer(_ id: String) {
        lock.withLock { _ = orders.removeValue(forKey: id) }
    }

    private static func next(_ version: String?) -> String {
        String((Int(version ?? "") ?? 0) + 1)
    }

    /// The orders it holds, newest first.
    public var storedOrders: [Order] {
        lock.withLock { orders.values.sorted { ($0.date, $0.id ?? "") > ($1.date, $1.id ?? "") } }
    }

    /// Every write it applied, in order, as `METHOD /path key` (the key `-` when none was sent);
    /// a repeat of a key it had seen is not listed again.
    public var applied: [String] {
        lock.withLock { appliedWrites }
    }

    /// Makes every request for `method` and `path` (such as `PUT /orders/srv-1`) answer `status`
    /// with `body`, without applying it.
    ///
    /// - Parameters:
    ///   - request: The method and path.
    ///   - status: The status, such as 409.
    ///   - body: The body, such as `{"error": "changed by someone else"}`.
    public func refuse(_ request: String, status: Int, body: String) {
        lock.withLock { refusals[request] = (status, body) }
    }

    /// Makes every request that `matches` says yes to answer `status` with `body`, without
    /// applying it: one order of several sent to the same path, say.
    ///
    /// - Parameters:
    ///   - matches: Picks the requests to refuse.
    ///   - status: The status, such as 500.
    ///   - body: The body.
    public func refuse(
        matching matches: @escaping @Sendable (TestHTTPServer.Request) -> Bool, status: Int, body: String
    ) {
        lock.withLock { matchingRefusals.append((matches, status, body)) }
    }

    /// Stops refusing `request`: it is applied again.
    ///
    /// - Parameter request: The method and path, as given to ``refuse(_:status:body:)``.
    public func allow(_ request: String) {
        lock.withLock { refusals[request] = nil }
    }

    /// Makes every request for `method` and `path` (such as `POST /orders`) applied as usual but
    /// answered with a body no one can read: the change is made, its answer is useless.
    ///
    /// - Parameter request: The method and path.
    public func garble(_ request: String) {
        lock.withLock { _ = garbled.insert(request) }
    }

    /// Makes the next request for `method` and `path` applied as usual, and then answered with
    /// `reply` instead of its answer: `.reset` or `.closeWithoutAnswer` (the answer lost), or
    /// `.slowHeaders(seconds:then:)` (the answer too late for the client). Once; the requests after
    /// it are answered as usual.
    ///
    /// - Parameters:
    ///   - request: The method and path, such as `POST /orders`.
    ///   - reply: What the client gets instead of the answer.
    public func loseAnswer(to request: String, with reply: TestHTTPServer.Reply) {
        lock.withLock { lostAnswers[request] = reply }
    }

    /// Makes every other request fail: alternately a 503 before doing anything, and a connection
    /// reset after the write was applied (its answer lost), the two ways a flaky network fails.
    ///
    /// - Parameter on: Whether to flap.
    public func flap(_ on: Bool) {
        lock.withLock { flapping = on }
    }

    /// Answers one request; hand it to ``TestHTTPServer/init(_:port:responder:)``.
    ///
    /// - Parameter request: The request.
    /// - Returns: The reply.
    public func respond(_ request: TestHTTPServer.Request) -> TestHTTPServer.Reply {
        lock.withLock {
            requestCount += 1
            let failure = flapping ? requestCount % 4 : 0
            if failure == 1 { return .status(503, body: #"{"error": "try again"}"#) }
            if let refusal = refusals["\(request.method) \(request.path)"]
                ?? matchingRefusals.first(where: { $0.matches(request) }).map({ ($0.status, $0.body) })
            {
                return .status(refusal.status, body: refusal.body)
            }
            let key = request.headers["idempotency-key"]
            if let key, let answer = answered[key] {
                return .status(answer.status, body: answer.body)
            }
            let answer = apply(request)
            if request.method != "GET", (200..<300).contains(answer.status) {
                appliedWrites.append("\(request.method) \(request.path) \(key ?? "-")")
                if let key { answered[key] = answer }
            }
            if failure == 3 { return .reset }
            if let lost = lostAnswers.removeValue(forKey: "\(request.method) \(request.path)") {
                if case .slowHeaders(let seconds, _) = lost {
                    return .slowHeaders(seconds: seconds, then: .status(answer.status, body: answer.body))
                }
                return lost
            }
            let garble = garbled.contains("\(request.method) \(request.path)")
            return .status(answer.status, body: garble ? "<html>Thank you!" : answer.body)
        }
    }

    /// What ``respond(_:)`` answers, as a status and a body, for ``TestHTTPServer/init(_:port:handler:)``.
    ///
    /// - Parameter request: The request.
    /// - Returns: The status and the body.
    public func handle(_ request: TestHTTPServer.Request) -> (status: Int, body: String) {
        guard case .status(let status, let body, _, _) = respond(request) else { return (503, "{}") }
        return (status, body)
    }

    private func apply(_ request: TestHTTPServer.Request) -> (status: Int, body: String) {
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.first == "orders" else { return (404, #"{"error": "not found"}"#) }
        switch (request.method, parts.count) {
        case ("GET", 1):
            return (200, encode(orders.values.sorted { $0.date > $1.date }))
        case ("POST", 1):
            guard var order = decode(request.body) else { return (400, #"{"errors": []}"#) }
            order.id = "srv-\(nextID)"
            nextID += 1
            order.total = order.computedTotal
            order.version = "1"
            orders[order.id ?? ""] = order
            return (201, encode(order))
        case ("GET", 2):
            return orders[parts[1]].map { (200, encode($0)) } ?? (404, #"{"error": "not found"}"#)
        case ("PUT", 2):
            guard let current = orders[parts[1]] else { return (404, #"{"error": "not found"}"#) }
            guard TestResourceAPI.ifMatch(request, allows: current.version) else {
                return (412, encode(current))
            }
            guard var order = decode(request.body) else { return (400, #"{"errors": []}"#) }
            order.id = parts[1]
            order.total = order.computedTotal
            order.version = Self.next(current.version)
            orders[parts[1]] = order
            return (200, encode(order))
        case ("DELETE", 2):
            guard let current = orders[parts[1]] else { return (404, #"{"error": "not found"}"#) }
            guard TestResourceAPI.ifMatch(request, allows: current.version) else {
                return (412, encode(current))
            }
            orders[parts[1]] = nil
            return (204, "")
        default:
            return (405, "{}")
        }
    }

    private func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    private func decode(_ body: Data) -> Order? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(Order.self, from: body)
    }
}
