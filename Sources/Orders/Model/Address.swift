/// A postal address, for billing or shipping.
public struct Address: Codable, Equatable, Hashable, Sendable {
    /// The first street line.
    public var street1: String
    /// The second street line, often empty.
    public var street2: String
    /// The city.
    public var city: String
    /// The state or region.
    public var state: String
    /// The postal code.
    public var zip: String

    /// Makes an address; every part defaults to empty.
    ///
    /// - Parameters:
    ///   - street1: The first street line.
    ///   - street2: The second street line.
    ///   - city: The city.
    ///   - state: The state or region.
    ///   - zip: The postal code.
    public init(
        street1: String = "", street2: String = "", city: String = "", state: String = "", zip: String = ""
    ) {
        self.street1 = street1
        self.street2 = street2
        self.city = city
        self.state = state
        self.zip = zip
    }
}
