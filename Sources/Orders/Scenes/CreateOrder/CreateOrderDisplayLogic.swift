/// The create-order form, as its presenter sees it.
@MainActor
public protocol CreateOrderDisplayLogic: AnyObject, Sendable {
    /// Shows the expiration date picked.
    ///
    /// - Parameter viewModel: The date as text.
    func displayExpirationDate(viewModel: CreateOrder.FormatExpirationDate.ViewModel)

    /// Shows the order that was created.
    ///
    /// - Parameter viewModel: The order as strings.
    func displayCreatedOrder(viewModel: CreateOrder.CreateOrder.ViewModel)

    /// Shows what is wrong with the form, next to each field.
    ///
    /// - Parameter viewModel: A message per wrong field.
    func displayValidationErrors(viewModel: CreateOrder.CreateOrder.ViewModel)

    /// Shows why the order could not be created although the form was right (the shop is
    /// unreachable, the store failed).
    ///
    /// - Parameter message: A sentence for the user.
    func displayCreateOrderError(message: String)
}
