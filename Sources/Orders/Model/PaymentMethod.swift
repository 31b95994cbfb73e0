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
        let bytes = creditCardNumber.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            return String(creditCardNumber.filter(\.isNumber).suffix(4))
        }
        // ASCII, the usual case, read from the end as bytes: a listing asks this of every order.
        var lastFour: [UInt8] = []
        for byte in bytes.reversed() where byte.isASCIIDigit {
            lastFour.append(byte)
            if lastFour.count == 4 { break }
        }
        return String(decoding: lastFour.reversed(), as: UTF8.self)
    }

    /// The card number as it may be shown: `•••• 1111`.
    public var maskedCardNumber: String {
        let lastFour = lastFourDigits
        return lastFour.isEmpty ? "" : "•••• " + lastFour
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
