import Foundation
import OrdersTesting
import Testing

@Suite("Card data")
struct CardMaskingTests {
    @Test("printing, reflecting or dumping a payment method never shows the card number or CVV")
    func neverWhole() {
        // Given
        let order = validOrder()
        var dumped = ""
        dump(order, to: &dumped)

        // Then
        for text in ["\(order.paymentMethod)", String(reflecting: order.paymentMethod), "\(order)", dumped] {
            #expect(!text.contains("8888"), "\(text)")
            #expect(!text.contains("987"), "\(text)")
        }
        #expect("\(order.paymentMethod)" == "card •••• 1881")
    }
}
