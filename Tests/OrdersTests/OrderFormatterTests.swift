import Foundation
import OrdersTesting
import Testing

@Suite("Order formatter")
struct OrderFormatterTests {
    @Test(
        "a name with one part empty shows the other part alone",
        arguments: [("Amy", "Apple", "Amy Apple"), ("", "Apple", "Apple"), ("Amy", "", "Amy"), ("", "", "")])
    func names(first: String, last: String, shown: String) {
        var order = validOrder()
        order.firstName = first
        order.lastName = last
        #expect(OrderFormatter().name(order) == shown)
    }

    @Test(
        "totals as currency: no, one and two decimals, negative, large",
        arguments: [
            ("0", "$0.00"), ("1.5", "$1.50"), ("1.25", "$1.25"), ("-3", "-$3.00"),
            ("1234567.89", "$1,234,567.89"),
        ])
    func currency(amount: String, shown: String) {
        let formatter = OrderFormatter(locale: Locale(identifier: "en_US"), currencyCode: "USD")
        #expect(formatter.currency(Decimal(string: amount) ?? -1) == shown)
    }

    @Test("a date at midnight UTC falls on a different day in Los Angeles, and each day is formatted once")
    func datesAtMidnight() {
        let midnight = day(2026, 11, 20)
        let utc = OrderFormatter(
            locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC") ?? .current)
        let losAngeles = OrderFormatter(
            locale: Locale(identifier: "en_US"),
            timeZone: TimeZone(identifier: "America/Los_Angeles") ?? .current)
        #expect(utc.date(midnight) == "11/20/26")
        #expect(losAngeles.date(midnight) == "11/19/26")
        #expect(losAngeles.dates([midnight, midnight.addingTimeInterval(-1)]) == ["11/19/26", "11/19/26"])
        #expect(utc.dates([midnight, midnight.addingTimeInterval(-1)]) == ["11/20/26", "11/19/26"])
    }
}
