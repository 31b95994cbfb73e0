/// What is wrong with one field of an order, in words for the user.
public struct OrderFieldError: Equatable, Hashable, Codable, Sendable {
    /// The field.
    public let field: OrderField
    /// What is wrong, such as "Enter an email address like name@example.com."
    public let message: String

    /// Makes a field error.
    ///
    /// - Parameters:
    ///   - field: The field.
    ///   - message: What is wrong.
    public init(field: OrderField, message: String) {
        self.field = field
        self.message = message
    }
}
