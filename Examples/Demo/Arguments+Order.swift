import Foundation
import Orders

/// The order of `demo orders create`, read from its options (``Option/all``).
extension Arguments {
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

    /// The order of `orders create`: each order option's values read, in the order given.
    static func order(_ values: [String: [String]]) throws -> Order {
        var order = Order(
            date: Date(), email: "", firstName: "", lastName: "", phone: "",
            billingAddress: Address(street1: "", city: "", state: "", zip: ""),
            shipmentAddress: Address(street1: "", city: "", state: "", zip: ""),
            paymentMethod: PaymentMethod(
                creditCardNumber: "", expirationDate: Date(timeIntervalSince1970: 0), cvv: ""),
            shipmentMethod: ShipmentMethod(speed: .standard), items: [], total: 0)
        try apply(values, to: &order)
        return order
    }

    /// Puts the order options' values into `order`: every value of one that repeats (items,
    /// which then replace the order's), the last of any other. What `orders update` changes.
    static func apply(_ values: [String: [String]], to order: inout Order) throws {
        for option in Option.all {
            guard case .order(_, let repeats, _, let read) = option.use, let given = values[option.name]
            else {
                continue
            }
            if repeats { order.items = [] }
            for value in repeats ? given : given.suffix(1) {
                try read(&order, value)
            }
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool {
        isASCII && isNumber
    }
}
