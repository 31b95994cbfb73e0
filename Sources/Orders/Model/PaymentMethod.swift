public import Foundation

/// How an order is paid: a card.
///
/// The card number and CVV never appear whole in a description, a log line or a dump: printing a
/// payment method shows the last four digits only. Stores keep only what a shop must (see
/// ``OrdersSQLiteStore``).
public struct PaymentMethod: Codable, Equatable, Hashable, Sendable {
    /// The card number as entered, digits possibly grouped by spaces or dashes.
    public var creditCardNumber: String
    /// The month the card expires in (any day of it).
    public var expirationDate: Date
    /// The card's verification code.
    public var cvv: String

    /// Makes a payment method.
    ///
    /// - Parameters:
    ///   - creditCardNumber: The card number.
    ///   - expirationDate: The month the card expires in.
    ///   - cvv: The card's verification code.
    public init(
        creditCardNumber: String = "", expirationDate: Date = Date(timeIntervalSince1970: 0), cvv: String = ""
    ) {
        self.creditCardNumber = creditCardNumber
        self.expirationDate = expirationDate
        self.cvv = cvv
    }

    /// The card's last four digits, or fewer if it has fewer.
    public var lastFourDigits: String {
        String(creditCardNumber.filter(\.isNumber).suffix(4))
    }

    /// The card number as it may be shown: `•••• 1111`.
    public var maskedCardNumber: String {
        lastFourDigits.isEmpty ? "" : "•••• \(lastFourDigits)"
    }
}

extension PaymentMethod: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The card, masked: `card •••• 1111`.
    public var description: String {
        "card \(maskedCardNumber)"
    }

    /// The card, masked, as for ``description``.
    public var debugDescription: String {
        description
    }

    /// What `dump` and debuggers show: the masked number, never the number or the CVV.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["card": maskedCardNumber, "expirationDate": expirationDate],
            displayStyle: .struct)
    }
}
