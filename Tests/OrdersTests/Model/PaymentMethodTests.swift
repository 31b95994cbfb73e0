import Foundation
import OrdersTesting
import Testing

@Suite("Payment method")
struct PaymentMethodTests {
    @Test(
        "the last four digits skip separators, keep fewer when there are fewer, and read non-ASCII digits",
        arguments: [
            ("4111 1111 1111 1234", "1234", "•••• 1234"), ("4111-1111-1111-9876", "9876", "•••• 9876"),
            ("12", "12", "•••• 12"), ("", "", ""), ("card", "", ""),
            ("١٢٣٤٥", "٢٣٤٥", "•••• ٢٣٤٥"), ("4111 1111 1111 12é4", "1124", "•••• 1124"),
        ])
    func lastFourDigits(number: String, lastFour: String, masked: String) {
        // Given a card number
        let card = PaymentMethod(creditCardNumber: number)

        // Then its last four digits and its masked form
        #expect(card.lastFourDigits == lastFour)
        #expect(card.maskedCardNumber == masked)
    }
}
