/// A field of the order form, for saying which one is wrong.
///
/// More cases may be added in a later version: a `switch` over it needs a `default`.
public enum OrderField: String, CaseIterable, Codable, Sendable {
    /// The customer's first name.
    case firstName
    /// The customer's last name.
    case lastName
    /// The customer's email address.
    case email
    /// The shipping address.
    case shipmentAddress
    /// The card number.
    case creditCardNumber
    /// The card's expiration date.
    case expirationDate
    /// The card's verification code.
    case cvv
    /// The ordered items.
    case items
}
