import Foundation
import OrdersTesting
import Testing

/// The form's rules (`Order+Validation.swift`) at their edges: each found by breaking the rule on
/// purpose, when no test caught the break.
@Suite("Order validation")
struct OrderValidationTests {
    static let now = day(2026, 11, 20)

    /// The field errors of `validOrder()` changed by `change`.
    func errors(_ change: (inout Order) -> Void) -> [OrderField] {
        var order = validOrder()
        change(&order)
        return order.formErrors(now: Self.now).map(\.field)
    }

    @Test(
        "each required part of the shipping address, blank or only spaces, is a shipping address error; the others are not required",
        arguments: [("street1", true), ("city", true), ("zip", true), ("street2", false), ("state", false)])
    func shippingAddressParts(part: String, required: Bool) {
        func setting(_ address: inout Address, _ text: String) {
            switch part {
            case "street1": address.street1 = text
            case "street2": address.street2 = text
            case "city": address.city = text
            case "state": address.state = text
            default: address.zip = text
            }
        }
        for blank in ["", "   ", "\t\n"] {
            // Given / When
            let fieldErrors = errors { setting(&$0.shipmentAddress, blank) }

            // Then
            #expect(
                fieldErrors.contains(.shipmentAddress) == required, "\(part) as \(blank.debugDescription)")
        }
        // The billing address is not asked for: blank, it is no error.
        #expect(errors { setting(&$0.billingAddress, "") }.isEmpty)
    }

    @Test("an item needs a quantity of at least one: one is valid, none is an items error")
    func itemQuantityAtLeastOne() {
        // Given / When
        let one = errors { $0.items = [OrderItem(name: "Pen", quantity: 1, unitPrice: 2)] }
        let none = errors { $0.items = [OrderItem(name: "Pen", quantity: 0, unitPrice: 2)] }

        // Then
        #expect(one.isEmpty)
        #expect(none == [.items])
    }

    @Test("a card number with any digit mistyped fails the Luhn check; the right one passes")
    func luhnCheck() {
        #expect(errors { _ in }.isEmpty)
        for last in "0234567890".dropLast() {
            let field = errors { $0.paymentMethod.creditCardNumber = "4012 8888 8888 188\(last)" }
            #expect(field == [.creditCardNumber], "last digit \(last)")
        }
        #expect(errors { $0.paymentMethod.creditCardNumber = "5500 0000 0000 0004" }.isEmpty)
        // A 9 in a place the check does not double counts as 9
        #expect(errors { $0.paymentMethod.creditCardNumber = "4539 1488 0343 6467" }.isEmpty)
    }

    @Test(
        "a card number is 13 to 19 digits: 12 or 20 that pass the check digit are refused, 13 and 19 are accepted"
    )
    func cardNumberLength() {
        #expect(errors { $0.paymentMethod.creditCardNumber = "4111 1111 1117" } == [.creditCardNumber])
        #expect(errors { $0.paymentMethod.creditCardNumber = "4222 2222 2222 2" }.isEmpty)
        #expect(errors { $0.paymentMethod.creditCardNumber = "4000 0000 0000 0000 006" }.isEmpty)
        #expect(
            errors { $0.paymentMethod.creditCardNumber = "4000 0000 0000 0000 0006" } == [.creditCardNumber])
    }

    @Test("an item given away (a unit price of zero) is valid")
    func freeItemValid() {
        #expect(errors { $0.items = [OrderItem(name: "Sticker", quantity: 1, unitPrice: 0)] }.isEmpty)
    }

    @Test("a card expiring this month is still good; one that expired last month is refused")
    func cardExpiringThisMonth() {
        // Given: now is 20 November 2026
        let thisMonth = day(2026, 11, 1)
        let lastMonth = day(2026, 10, 31)

        // When / Then
        #expect(errors { $0.paymentMethod.expirationDate = thisMonth }.isEmpty)
        #expect(errors { $0.paymentMethod.expirationDate = lastMonth } == [.expirationDate])
    }

    @Test("a card may expire up to twenty years ahead, that month included; a month later is refused")
    func cardExpiringTwentyYearsAhead() {
        // Given: now is the first moment of December 2026
        let now = day(2026, 12, 1)
        var order = validOrder()

        // When
        order.paymentMethod.expirationDate = day(2046, 12, 1)
        let twentyYears = order.formErrors(now: now).map(\.field)
        order.paymentMethod.expirationDate = day(2047, 1, 1)
        let monthLater = order.formErrors(now: now).map(\.field)

        // Then
        #expect(twentyYears.isEmpty)
        #expect(monthLater == [.expirationDate])
    }

    @Test(
        "the CVV is 3 or 4 digits",
        arguments: [
            ("12", false), ("123", true), ("1234", true), ("12345", false), ("12a", false), ("", false),
        ])
    func cvv(cvv: String, valid: Bool) {
        #expect(errors { $0.paymentMethod.cvv = cvv }.isEmpty == valid)
    }

    @Test(
        "quantities and prices are bounded, the bounds included",
        arguments: [
            (10_000, Decimal(1), true), (10_001, Decimal(1), false), (1, Decimal(1_000_000), true),
            (1, Decimal(string: "1000000.01") ?? 0, false), (0, Decimal(1), false), (1, Decimal(-1), false),
        ])
    func bounds(quantity: Int, price: Decimal, valid: Bool) {
        let field = errors { $0.items = [OrderItem(name: "Tea", quantity: quantity, unitPrice: price)] }
        #expect(field.isEmpty == valid, "\(quantity) × \(price)")
    }

    @Test(
        "an email needs one @, something before it and a dotted domain, without spaces",
        arguments: [
            ("amy@example.com", true), ("@example.com", false), ("amy@example", false),
            ("amy@.example.com", false),
            ("amy@example.com.", false), ("amy@@example.com", false), ("amy @example.com", false),
            ("", false),
        ])
    func emails(email: String, valid: Bool) {
        #expect(errors { $0.email = email }.isEmpty == valid, "\(email)")
    }

    @Test("a name of spaces is no name")
    func blankNames() {
        #expect(errors { $0.firstName = "   " } == [.firstName])
        #expect(errors { $0.lastName = " \t " } == [.lastName])
    }

}
