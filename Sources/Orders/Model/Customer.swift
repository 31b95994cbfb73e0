public import OfflineKit
import Services

/// A customer of the shop, whom an order may name (``Order/customerID``).
///
/// Created on this device while the shop cannot be reached, a customer has a local identifier
/// until the shop gives its own; orders naming it wait for that, and are sent naming the shop's.
public struct Customer: OfflineResource, Equatable, Hashable {
    /// The shop's identifier, or a local one until the shop has the customer.
    public var id: String?
    /// The shop's version of the customer.
    public var version: String?
    /// The customer's name, as the shop shows it.
    public var name: String
    /// Where the shop writes to the customer.
    public var email: String

    /// Makes a customer; a new one has no identifier or version yet.
    ///
    /// - Parameters:
    ///   - id: The shop's identifier, `nil` before creation.
    ///   - version: The shop's version, `nil` before creation.
    ///   - name: The customer's name.
    ///   - email: The customer's email address.
    public init(id: String? = nil, version: String? = nil, name: String, email: String) {
        (self.id, self.version, self.name, self.email) = (id, version, name, email)
    }
}
