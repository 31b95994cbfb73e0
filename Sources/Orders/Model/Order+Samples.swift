import Foundation

extension Order {
    /// Four orders, the same every time, for previews, demos and the sample API (`Examples/api`):
    /// CleanStore's two (Amy Apple's `abc123` and Bob Battery's `def456`) and two more. Card
    /// numbers are stored masked, as a store keeps them.
    public static let samples: [Order] = [
        Order(
            id: "abc123", date: Date(timeIntervalSince1970: 1_183_075_200),
            email: "amy.apple@clean-swift.com",
            firstName: "Amy", lastName: "Apple", phone: "555-0100",
            billingAddress: Address(street1: "1 Infinite Loop", city: "Cupertino", state: "CA", zip: "95014"),
            shipmentAddress: Address(
                street1: "1 Infinite Loop", city: "Cupertino", state: "CA", zip: "95014"),
            paymentMethod: PaymentMethod(
                creditCardNumber: "•••• 1111",
                expirationDate: Date(timeIntervalSince1970: 1_893_456_000)),
            shipmentMethod: ShipmentMethod(speed: .standard),
            items: [OrderItem(name: "Apple", quantity: 1, unitPrice: Decimal(string: "1.23") ?? 0)],
            total: Decimal(string: "1.23") ?? 0),
        Order(
            id: "def456", date: Date(timeIntervalSince1970: 1_183_161_600),
            email: "bob.battery@clean-swift.com",
            firstName: "Bob", lastName: "Battery", phone: "555-0101",
            billingAddress: Address(street1: "1 Battery Park", city: "New York", state: "NY", zip: "10004"),
            shipmentAddress: Address(street1: "1 Battery Park", city: "New York", state: "NY", zip: "10004"),
            paymentMethod: PaymentMethod(
                creditCardNumber: "•••• 0004",
                expirationDate: Date(timeIntervalSince1970: 1_893_456_000)),
            shipmentMethod: ShipmentMethod(speed: .standard),
            items: [OrderItem(name: "Battery", quantity: 2, unitPrice: Decimal(string: "2.28") ?? 0)],
            total: Decimal(string: "4.56") ?? 0),

        Order(
            id: "ghi789", date: date(2026, 11, 2), email: "carol.cherry@example.com", firstName: "Carol",
            lastName: "Cherry", phone: "555-0102",
            billingAddress: Address(
                street1: "12 Orchard Road", city: "Portland", state: "OR", zip: "97201"),
            shipmentAddress: Address(
                street1: "12 Orchard Road", city: "Portland", state: "OR", zip: "97201"),
            paymentMethod: PaymentMethod(creditCardNumber: "•••• 1881", expirationDate: date(2029, 4, 1)),
            shipmentMethod: ShipmentMethod(speed: .twoDay),
            items: [
                OrderItem(name: "Vinyl: Kind of Blue", quantity: 1, unitPrice: decimal("24.99")),
                OrderItem(name: "Record sleeves (pack of 10)", quantity: 2, unitPrice: decimal("6.50")),
            ],
            total: decimal("43.98")),
        Order(
            id: "jkl012", date: date(2026, 11, 14), email: "dan.date@example.com", firstName: "Dan",
            lastName: "Date", phone: "555-0103",
            billingAddress: Address(street1: "3 Palm Court", city: "Austin", state: "TX", zip: "73301"),
            shipmentAddress: Address(street1: "3 Palm Court", city: "Austin", state: "TX", zip: "73301"),
            paymentMethod: PaymentMethod(creditCardNumber: "•••• 0004", expirationDate: date(2028, 9, 1)),
            shipmentMethod: ShipmentMethod(speed: .oneDay),
            items: [OrderItem(name: "Headphones", quantity: 1, unitPrice: decimal("149.00"))],
            total: decimal("161.99")),
    ]

    private static func date(_ year: Int, _ month: Int, _ day: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        return calendar.date(from: DateComponents(year: year, month: month, day: day))
            ?? Date(timeIntervalSince1970: 0)
    }

    private static func decimal(_ text: String) -> Decimal {
        Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? 0
    }
}
