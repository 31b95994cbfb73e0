import Foundation
import Melodies
import Orders

/// The catalogue the demo starts with: seeded into the database on the first run, and served by
/// the sample API (`Examples/api`, written by `demo export-sample-api`).
enum SampleCatalogue {
    static let melodies = [
        Melody(
            id: 1, title: "Clair de Lune", artist: "Claude Debussy", album: "Suite bergamasque",
            durationSeconds: 302),
        Melody(
            id: 2, title: "Gymnopédie No. 1", artist: "Erik Satie", album: "Trois Gymnopédies",
            durationSeconds: 187),
        Melody(id: 3, title: "So What", artist: "Miles Davis", album: "Kind of Blue", durationSeconds: 562),
        Melody(
            id: 4, title: "Blue in Green", artist: "Miles Davis", album: "Kind of Blue", durationSeconds: 337),
        Melody(
            id: 5, title: "Take Five", artist: "The Dave Brubeck Quartet", album: "Time Out",
            durationSeconds: 324),
        Melody(id: 6, title: "River", artist: "Joni Mitchell", album: "Blue", durationSeconds: 244),
        Melody(id: 7, title: "Hallelujah", artist: "Jeff Buckley", album: "Grace", durationSeconds: 413),
        Melody(id: 8, title: "Teardrop", artist: "Massive Attack", album: "Mezzanine", durationSeconds: 330),
        Melody(
            id: 9, title: "Svefn-g-englar", artist: "Sigur Rós", album: "Ágætis byrjun", durationSeconds: 604),
        Melody(
            id: 10, title: "Windowlicker", artist: "Aphex Twin", album: "Windowlicker", durationSeconds: 367),
        Melody(id: 11, title: "Avril 14th", artist: "Aphex Twin", album: "Drukqs", durationSeconds: 125),
        Melody(
            id: 12, title: "The Köln Concert, Part I", artist: "Keith Jarrett", album: "The Köln Concert",
            durationSeconds: 1_560),
    ]

    static var orders: [Order] {
        OrdersMemStore.sampleOrders + [
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
    }

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
