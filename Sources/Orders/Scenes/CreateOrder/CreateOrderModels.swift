public import Foundation
public import OfflineKit
import Services

/// The create-order scene: the form's requests, what the presenter formats, and what it shows.
public enum CreateOrder {
    /// Showing the card's expiration date the user picked.
    public enum FormatExpirationDate {
        /// The date picked.
        public struct Request: Sendable {
            /// The date.
            public var date: Date

            /// Makes a request.
            ///
            /// - Parameter date: The date picked.
            public init(date: Date) {
                self.date = date
            }
        }

        /// The date to format.
        public struct Response: Sendable {
            /// The date.
            public var date: Date

            /// Makes a response.
            ///
            /// - Parameter date: The date.
            public init(date: Date) {
                self.date = date
            }
        }

        /// The date as the form's field shows it.
        public struct ViewModel: Equatable, Sendable {
            /// The date in short style, such as `6/29/07`.
            public var date: String

            /// Makes a view model.
            ///
            /// - Parameter date: The formatted date.
            public init(date: String) {
                self.date = date
            }
        }
    }

    /// Placing the order the form describes.
    public enum CreateOrder {
        /// The order as the form filled it in; its `id` and `total` are ignored.
        public struct Request: Sendable {
            /// The order.
            public var order: Order

            /// Makes a request.
            ///
            /// - Parameter order: The order the form describes.
            public init(order: Order) {
                self.order = order
            }
        }

        /// What was created, or what is wrong with the form.
        public struct Response: Sendable {
            /// The order as stored, when it was created.
            public var order: Order?
            /// One error per wrong field, when it was not.
            public var fieldErrors: [OrderFieldError]
            /// Whether the shop has the order yet.
            public var syncState: SyncState

            /// Makes a response.
            ///
            /// - Parameters:
            ///   - order: The order as stored.
            ///   - fieldErrors: What is wrong with the form.
            ///   - syncState: Whether the shop has the order yet; synced by default.
            public init(
                order: Order? = nil, fieldErrors: [OrderFieldError] = [], syncState: SyncState = .synced
            ) {
                self.order = order
                self.fieldErrors = fieldErrors
                self.syncState = syncState
            }
        }

        /// What the form shows: strings only.
        public struct ViewModel: Equatable, Sendable {
            /// The created order, ready for labels; the card shows its last four digits only.
            public struct DisplayedOrder: Equatable, Sendable {
                /// The new order's identifier.
                public var id: String
                /// The date in short style.
                public var date: String
                /// "First Last".
                public var name: String
                /// The customer's email.
                public var email: String
                /// The shipping method's title.
                public var shippingMethod: String
                /// The card, such as `•••• 1111`.
                public var card: String
                /// The total in the currency.
                public var total: String

                /// Makes a displayed order.
                ///
                /// - Parameters:
                ///   - id: The new order's identifier.
                ///   - date: The date in short style.
                ///   - name: "First Last".
                ///   - email: The customer's email.
                ///   - shippingMethod: The shipping method's title.
                ///   - card: The masked card.
                ///   - total: The total in the currency.
                public init(
                    id: String, date: String, name: String, email: String, shippingMethod: String,
                    card: String,
                    total: String
                ) {
                    self.id = id
                    self.date = date
                    self.name = name
                    self.email = email
                    self.shippingMethod = shippingMethod
                    self.card = card
                    self.total = total
                }
            }

            /// The created order, when it was created.
            public var displayedOrder: DisplayedOrder?
            /// A message per wrong field, when it was not.
            public var fieldErrors: [OrderField: String]
            /// `nil` when the shop has the order, or a sentence saying it was kept on this device.
            public var notice: String?

            /// Makes a view model.
            ///
            /// - Parameters:
            ///   - displayedOrder: The created order.
            ///   - fieldErrors: A message per wrong field.
            ///   - notice: Says the order waits on this device, if it does.
            public init(
                displayedOrder: DisplayedOrder? = nil, fieldErrors: [OrderField: String] = [:],
                notice: String? = nil
            ) {
                self.displayedOrder = displayedOrder
                self.fieldErrors = fieldErrors
                self.notice = notice
            }
        }
    }
}
