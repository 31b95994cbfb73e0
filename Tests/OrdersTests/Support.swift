import Foundation
import OrdersTesting

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

/// CleanStore's first sample order: Amy Apple's, on 6/29/07, for $1.23.
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
