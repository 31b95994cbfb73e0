public import Orders

extension Order {
    /// CleanStore's two sample orders as a customer enters them, full card number and CVV
    /// included: Amy Apple's (`abc123`, $1.23, card 4111 1111 1111 1111) and Bob Battery's
    /// (`def456`, $4.56, card 5500 0000 0000 0004). Test data only: a store keeps cards masked.
    ///
    /// - Returns: Two orders, the first two of ``Order/samples`` with their whole cards.
    public static func mocks() -> [Order] {
        let cards = [("4111 1111 1111 1111", "123"), ("5500 0000 0000 0004", "456")]
        return zip(Order.samples.prefix(2), cards).map { order, card in
            var order = order
            order.paymentMethod = PaymentMethod(
                creditCardNumber: card.0, expirationDate: order.paymentMethod.expirationDate, cvv: card.1)
            return order
        }
    }
}
