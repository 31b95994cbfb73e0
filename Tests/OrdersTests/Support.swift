import Foundation
import PromiseMVPTesting

/// Everything pinned so that texts are the same on every machine: en_US, UTC, US dollars.
let pinnedFormatter = OrderFormatter(
    locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC") ?? .current,
    currencyCode: "USD")

/// Midnight UTC on a day, for dates that format the same everywhere.
func day(_ year: Int, _ month: Int, _ day: Int) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    return calendar.date(from: DateComponents(year: year, month: month, day: day))
        ?? Date(timeIntervalSince1970: 0)
}

/// The seed's order: Amy Apple's, on 6/29/07, for $1.23.
let seedOrder = Order(
    id: "abc123", date: day(2007, 6, 29), email: "amy.apple@clean-swift.com", firstName: "Amy",
    lastName: "Apple",
    total: Decimal(string: "1.23") ?? 0)

/// A complete order, as the form would fill it in, that every store accepts.
func validOrder(email: String = "carol.cherry@clean-swift.com", items: [OrderItem]? = nil) -> Order {
    Order(
        date: day(2026, 11, 20), email: email, firstName: "Carol", lastName: "Cherry", phone: "555-0102",
        billingAddress: Address(street1: "1 Cherry Lane", city: "Portland", state: "OR", zip: "97201"),
        shipmentAddress: Address(street1: "1 Cherry Lane", city: "Portland", state: "OR", zip: "97201"),
        paymentMethod: PaymentMethod(
            creditCardNumber: "4012 8888 8888 1881", expirationDate: day(2030, 1, 1), cvv: "987"),
        shipmentMethod: ShipmentMethod(speed: .twoDay),
        items: items ?? [
            OrderItem(name: "Cherry", quantity: 3, unitPrice: Decimal(string: "2.50") ?? 0),
            OrderItem(name: "Basket", quantity: 1, unitPrice: Decimal(string: "10.00") ?? 0),
        ],
        total: 999)  // never trusted: stores compute 3 × 2.50 + 10.00 + 5.99 = 23.49
}

/// A small REST API for orders, for the loopback server: what a shop's backend would answer.
final class OrdersBackend: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `orders` and `nextID` are only touched while holding `lock`.
    private let lock = NSLock()
    private var orders: [String: Order] = [:]
    private var nextID = 1

    func handle(_ request: TestHTTPServer.Request) -> (status: Int, body: String) {
        lock.withLock {
            let parts = request.path.split(separator: "/").map(String.init)
            switch (request.method, parts.count) {
            case ("GET", 1):
                return (200, encode(Array(orders.values)))
            case ("POST", 1):
                guard var order = decode(request.body) else { return (400, #"{"errors": []}"#) }
                order.id = "srv-\(nextID)"
                nextID += 1
                order.total = order.computedTotal
                orders[order.id ?? ""] = order
                return (201, encode(order))
            case ("GET", 2):
                return orders[parts[1]].map { (200, encode($0)) } ?? (404, "{}")
            case ("PUT", 2):
                guard orders[parts[1]] != nil else { return (404, "{}") }
                guard var order = decode(request.body) else { return (400, #"{"errors": []}"#) }
                order.id = parts[1]
                order.total = order.computedTotal
                orders[parts[1]] = order
                return (200, encode(order))
            case ("DELETE", 2):
                return orders.removeValue(forKey: parts[1]) == nil ? (404, "{}") : (204, "")
            default:
                return (405, "{}")
            }
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

/// A temporary database file of its own.
func temporaryDatabaseFile() -> URL {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("OrdersTests-\(UUID().uuidString)", isDirectory: true)
        .appendingPathComponent("orders.sqlite")
}
