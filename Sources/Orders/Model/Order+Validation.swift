public import Foundation

extension Order {
    /// The most of one item an order may hold, and the highest unit price: bounds under which every
    /// total is exact and prints as it is stored.
    public static let maximumQuantity = 10_000
    /// The highest unit price of an item; see ``maximumQuantity``.
    public static let maximumUnitPrice: Decimal = 1_000_000

    /// What any store refuses: no name, an email that does not look like one, no items, or an item
    /// with no name, a quantity outside 1...``maximumQuantity`` or a price outside
    /// 0...``maximumUnitPrice``.
    ///
    /// - Returns: One error per wrong field, in form order; empty when the order can be stored.
    public func integrityErrors() -> [OrderFieldError] {
        var errors: [OrderFieldError] = []
        if firstName.trimmed.isEmpty {
            errors.append(OrderFieldError(field: .firstName, message: "Enter a first name."))
        }
        if lastName.trimmed.isEmpty {
            errors.append(OrderFieldError(field: .lastName, message: "Enter a last name."))
        }
        if !Self.looksLikeEmail(email) {
            errors.append(
                OrderFieldError(field: .email, message: "Enter an email address like name@example.com."))
        }
        if items.isEmpty {
            errors.append(OrderFieldError(field: .items, message: "Add at least one item."))
        } else if items.contains(where: { $0.quantity < 1 || $0.unitPrice < 0 || $0.name.trimmed.isEmpty }) {
            errors.append(
                OrderFieldError(
                    field: .items, message: "Each item needs a name, a quantity of at least 1 and a price."))
        } else if items.contains(where: {
            $0.quantity > Self.maximumQuantity || $0.unitPrice > Self.maximumUnitPrice
        }) {
            errors.append(
                OrderFieldError(
                    field: .items,
                    message: "An item may have a quantity of at most 10,000 and a price of at most 1,000,000."
                ))
        }
        return errors
    }

    /// What the order form refuses: everything ``integrityErrors()`` does, plus a missing shipping
    /// address, a card number that is not 13 to 19 digits or fails the Luhn check, a card that
    /// expired before the month of `now` or expires more than 20 years after it, and a CVV that is
    /// not 3 or 4 digits.
    ///
    /// - Parameters:
    ///   - now: Today, to tell an expired card.
    ///   - calendar: The calendar months are counted in.
    /// - Returns: One error per wrong field, in form order; empty when the order can be placed.
    public func formErrors(now: Date, calendar: Calendar = Calendar(identifier: .gregorian))
        -> [OrderFieldError]
    {
        var errors = integrityErrors()
        let address = shipmentAddress
        if address.street1.trimmed.isEmpty || address.city.trimmed.isEmpty || address.zip.trimmed.isEmpty {
            errors.append(
                OrderFieldError(
                    field: .shipmentAddress, message: "Enter the street, city and postal code to ship to."))
        }
        let digits = paymentMethod.creditCardNumber.filter { !" -".contains($0) }
        if !(13...19).contains(digits.count) || !digits.allSatisfy(\.isASCIIDigit) {
            errors.append(
                OrderFieldError(field: .creditCardNumber, message: "Enter the card number, 13 to 19 digits."))
        } else if !Self.passesLuhnCheck(digits) {
            errors.append(
                OrderFieldError(
                    field: .creditCardNumber, message: "This card number is not valid: check its digits."))
        }
        let expires = Self.monthStart(of: paymentMethod.expirationDate, calendar)
        if expires < Self.monthStart(of: now, calendar) {
            errors.append(OrderFieldError(field: .expirationDate, message: "This card has expired."))
        } else if let latest = calendar.date(byAdding: .year, value: 20, to: now), expires > latest {
            errors.append(
                OrderFieldError(field: .expirationDate, message: "Enter the month the card expires."))
        }
        let cvv = paymentMethod.cvv
        if !(3...4).contains(cvv.count) || !cvv.allSatisfy(\.isASCIIDigit) {
            errors.append(
                OrderFieldError(field: .cvv, message: "Enter the 3 or 4 digits on the back of the card."))
        }
        return errors.sorted {
            OrderField.allCases.firstIndex(of: $0.field) ?? 0 < OrderField.allCases.firstIndex(of: $1.field)
                ?? 0
        }
    }

    /// Throws what every store refuses, as the ``OrdersStoreError`` of `operation`.
    func validateForStore(_ operation: OrdersStoreError.Operation) throws {
        let errors = integrityErrors()
        guard errors.isEmpty else { throw OrdersStoreError(operation, .invalid(errors)) }
    }

    /// The Luhn checksum every card number carries: a mistyped digit fails it.
    static func passesLuhnCheck(_ digits: String) -> Bool {
        var sum = 0
        for (index, digit) in digits.reversed().compactMap(\.wholeNumberValue).enumerated() {
            let value = index % 2 == 1 ? digit * 2 : digit
            sum += value > 9 ? value - 9 : value
        }
        return sum % 10 == 0
    }

    /// One `@`, something before it, and a domain with a dot inside it; no spaces.
    static func looksLikeEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !email.contains(where: \.isWhitespace) else { return false }
        let (local, domain) = (parts[0], parts[1])
        return !local.isEmpty && domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".")
    }

    private static func monthStart(of date: Date, _ calendar: Calendar) -> Date {
        calendar.dateInterval(of: .month, for: date)?.start ?? date
    }
}

extension String {
    var trimmed: String {
        trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension Character {
    var isASCIIDigit: Bool {
        isASCII && isNumber
    }
}
