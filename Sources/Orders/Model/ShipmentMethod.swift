public import Foundation

/// How fast an order ships.
public struct ShipmentMethod: Codable, Equatable, Hashable, Sendable {
    /// The speeds a customer can choose, in the order the form lists them.
    public enum ShippingSpeed: Int, Codable, CaseIterable, Sendable {
        /// Free, within a week.
        case standard = 0
        /// Within two days.
        case twoDay = 1
        /// Next day.
        case oneDay = 2

        /// The speed's name, as the form shows it.
        public var title: String {
            switch self {
            case .standard: "Standard Shipping"
            case .twoDay: "Two-Day Shipping"
            case .oneDay: "One-Day Shipping"
            }
        }

        /// What it costs, added to the order's items.
        public var price: Decimal {
            switch self {
            case .standard: 0
            case .twoDay: Decimal(string: "5.99") ?? 0
            case .oneDay: Decimal(string: "12.99") ?? 0
            }
        }
    }

    /// The chosen speed.
    public var speed: ShippingSpeed

    /// Makes a shipment method.
    ///
    /// - Parameter speed: The chosen speed; standard by default.
    public init(speed: ShippingSpeed = .standard) {
        self.speed = speed
    }
}
