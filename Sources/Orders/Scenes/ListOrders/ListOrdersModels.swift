public import OfflineKit
public import Services

/// The list-orders scene: what the presenter is asked, what it formats, and what it shows.
public enum ListOrders {
    /// Fetching and showing the orders.
    public enum FetchOrders {
        /// Asks for the orders.
        public struct Request: Sendable {
            /// Makes a request.
            public init() {}
        }

        /// The orders to format, and where they came from.
        public struct Response: Sendable {
            /// The orders.
            public var orders: [Order]
            /// Where they came from.
            public var source: DataSource
            /// Which orders have changes the shop does not have yet.
            public var syncStatus: OutboxStatus

            /// Makes a response.
            ///
            /// - Parameters:
            ///   - orders: The orders.
            ///   - source: Where they came from; the network by default.
            ///   - syncStatus: Which orders have changes waiting; none by default.
            public init(orders: [Order], source: DataSource = .network, syncStatus: OutboxStatus = .empty) {
                self.orders = orders
                self.source = source
                self.syncStatus = syncStatus
            }
        }

        /// What the view shows: strings only.
        public struct ViewModel: Equatable, Sendable {
            /// One order, ready for labels.
            public struct DisplayedOrder: Equatable, Sendable {
                /// The order's identifier.
                public var id: String
                /// The date in short style.
                public var date: String
                /// The customer's email.
                public var email: String
                /// "First Last".
                public var name: String
                /// The total in the currency.
                public var total: String
                /// Whether the shop has the order as shown: synced, waiting to be sent, or
                /// refused with the shop's reason.
                public var syncState: SyncState

                /// Makes a displayed order.
                ///
                /// - Parameters:
                ///   - id: The order's identifier.
                ///   - date: The date in short style.
                ///   - email: The customer's email.
                ///   - name: "First Last".
                ///   - total: The total in the currency.
                ///   - syncState: Whether the shop has it as shown; synced by default.
                public init(
                    id: String, date: String, email: String, name: String, total: String,
                    syncState: SyncState = .synced
                ) {
                    self.id = id
                    self.date = date
                    self.email = email
                    self.name = name
                    self.total = total
                    self.syncState = syncState
                }
            }

            /// The orders, newest first.
            public var displayedOrders: [DisplayedOrder]
            /// `nil` for fresh orders, or a sentence saying they are the offline copy and since when.
            public var notice: String?
            /// `nil` when the shop has every change, or a sentence saying how many wait to be sent
            /// and how many it refused.
            public var syncNotice: String?

            /// Makes a view model.
            ///
            /// - Parameters:
            ///   - displayedOrders: The orders.
            ///   - notice: The offline notice, if any.
            ///   - syncNotice: How many changes wait or were refused, if any.
            public init(displayedOrders: [DisplayedOrder], notice: String? = nil, syncNotice: String? = nil) {
                self.displayedOrders = displayedOrders
                self.notice = notice
                self.syncNotice = syncNotice
            }
        }
    }
}
