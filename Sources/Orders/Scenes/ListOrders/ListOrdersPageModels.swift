/// Showing the orders a page at a time, for a list too long to hold whole.
extension ListOrders {
    /// One page of the orders kept on this device, formatted.
    public enum FetchOrdersPage {
        /// One page of rows, and where the next page starts.
        public struct ViewModel: Equatable, Sendable {
            /// The page's orders, newest first, formatted as in a full listing.
            public var displayedOrders: [FetchOrders.ViewModel.DisplayedOrder]
            /// Where the next page starts, for ``ListOrdersPresenter/fetchOrdersPage(after:limit:)``;
            /// `nil` on the last page.
            public var next: OrdersPage.Cursor?
            /// How many orders the whole list holds, on the first page; `nil` on the others.
            public var count: Int?
            /// When the copy was saved, as a sentence, if it was.
            public var notice: String?
            /// How many changes wait or were refused, if any.
            public var syncNotice: String?

            /// Makes a view model.
            ///
            /// - Parameters:
            ///   - displayedOrders: The page's orders.
            ///   - next: Where the next page starts, or `nil`.
            ///   - count: How many orders the list holds, on the first page.
            ///   - notice: When the copy was saved, if it was.
            ///   - syncNotice: How many changes wait or were refused, if any.
            public init(
                displayedOrders: [FetchOrders.ViewModel.DisplayedOrder], next: OrdersPage.Cursor?,
                count: Int? = nil, notice: String? = nil, syncNotice: String? = nil
            ) {
                self.displayedOrders = displayedOrders
                self.next = next
                self.count = count
                self.notice = notice
                self.syncNotice = syncNotice
            }
        }
    }
}
