public import Foundation
public import OfflineKit
import Services

/// The orders this device shows, read in one go: what a watching screen is given after every
/// change.
public struct OrdersSnapshot: Sendable, Equatable {
    /// All orders, newest first, with this device's changes applied.
    public let orders: [Order]
    /// Which orders have changes the shop does not have yet, and how many wait.
    public let syncStatus: OutboxStatus
    /// When the offline copy was last filled from the API (or, never filled, the newest change
    /// made here); `nil` when there is neither.
    public let savedAt: Date?

    /// Makes a snapshot.
    ///
    /// - Parameters:
    ///   - orders: The orders.
    ///   - syncStatus: Their changes' status.
    ///   - savedAt: When the copy was saved.
    public init(orders: [Order], syncStatus: OutboxStatus, savedAt: Date?) {
        self.orders = orders
        self.syncStatus = syncStatus
        self.savedAt = savedAt
    }
}
