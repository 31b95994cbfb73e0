public import Foundation
public import OfflineKit
import Services

/// One page of the orders this device shows, newest first, and where the next page starts: what a
/// list of any length reads a screenful at a time, so that it never holds every order at once.
///
/// Pages follow the list's order, newest first and then by identifier, and each starts just after
/// the last order of the page before (a keyset, not an offset): an order saved meanwhile does not
/// shift the pages still to come, so none is shown twice or skipped because another was added.
public struct OrdersPage: Sendable, Equatable {
    /// Where a page starts: just after the order it was taken from. Opaque; a page gives it as
    /// ``next``.
    public struct Cursor: Sendable, Hashable {
        /// The order's date as the store keeps it (seconds since 1970), exactly: a `Date` made from
        /// it and back can come out one bit off, which would repeat or skip orders of that date.
        let date: Double
        /// The order's identifier.
        let id: String

        init(date: Double, id: String) {
            self.date = date
            self.id = id
        }

        /// The cursor after `order`, for stores that page a list they read whole.
        init(after order: Order) {
            self.init(date: order.date.timeIntervalSince1970, id: order.id ?? "")
        }

        /// Whether `order` comes after this cursor in the list's order: older, or as old with a
        /// greater identifier (compared as SQLite compares text, byte by byte).
        func precedes(_ order: Order) -> Bool {
            let date = order.date.timeIntervalSince1970
            return date < self.date
                || (date == self.date && id.utf8.lexicographicallyPrecedes((order.id ?? "").utf8))
        }
    }

    /// The page's orders, newest first, with this device's changes applied.
    public let orders: [Order]
    /// Where the next page starts; `nil` when this page is the last.
    public let next: Cursor?
    /// How many orders the whole list holds, read with the first page (the one after no cursor),
    /// for a screen's title; `nil` on the pages after it, which would count every order again.
    public let count: Int?
    /// Which orders have changes the shop does not have yet, read with the page.
    public let syncStatus: OutboxStatus
    /// When the offline copy was last filled from the API (or, never filled, the newest change
    /// made here); `nil` when there is neither.
    public let savedAt: Date?

    /// Makes a page.
    ///
    /// - Parameters:
    ///   - orders: The page's orders.
    ///   - next: Where the next page starts, or `nil`.
    ///   - count: How many orders the list holds, on the first page.
    ///   - syncStatus: Their changes' status.
    ///   - savedAt: When the copy was saved.
    public init(
        orders: [Order], next: Cursor?, count: Int? = nil, syncStatus: OutboxStatus = .empty,
        savedAt: Date? = nil
    ) {
        self.orders = orders
        self.next = next
        self.count = count
        self.syncStatus = syncStatus
        self.savedAt = savedAt
    }

    /// The newest `limit` of `orders` (all of them without a limit), in the list's order: newest
    /// first, then by identifier, as pages follow it; for stores that cut a page from the list.
    static func newest(_ orders: [Order], _ limit: Int? = nil) -> [Order] {
        let sorted = orders.sorted { Cursor(after: $0).precedes($1) }
        return limit.map { Array(sorted.prefix(max(1, $0))) } ?? sorted
    }
}
