public import Foundation

/// One line of an order: a product, how many, and the price of one.
public struct OrderItem: Codable, Equatable, Hashable, Sendable {
    /// The product's name.
    public var name: String
    /// How many; at least 1 in a valid order.
    public var quantity: Int
    /// The price of one, in the shop's currency.
    public var unitPrice: Decimal

    /// Makes an order line.
    ///
    /// - Parameters:
    ///   - name: The product's name.
    ///   - quantity: How many.
    ///   - unitPrice: The price of one.
    public init(name: String, quantity: Int, unitPrice: Decimal) {
        self.name = name
        self.quantity = quantity
        self.unitPrice = unitPrice
    }

    /// Quantity times unit price.
    public var subtotal: Decimal {
        unitPrice * Decimal(quantity)
    }
}

extension OrderItem {
    /// Decodes an order line, refusing a negative quantity or price with a clear error.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a missing or mistyped field, or a negative amount.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            quantity: try container.decodeNonNegative(Int.self, forKey: .quantity),
            unitPrice: try container.decodeNonNegative(Decimal.self, forKey: .unitPrice))
    }

    enum CodingKeys: String, CodingKey {
        case name, quantity, unitPrice
    }
}
