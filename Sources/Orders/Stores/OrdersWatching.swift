public import Foundation
public import Promises
public import Services

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

/// A store whose orders can be watched: a screen is told again after every change to them or to
/// their sync state, by this app, its sync, or another process writing the same file.
public protocol OrdersWatching: Sendable {
    /// Observes the orders kept on this device.
    ///
    /// - Parameters:
    ///   - dispatcher: Where `onChange` runs.
    ///   - onChange: Gets the snapshot at once and after each change, or why it cannot be read.
    /// - Returns: The observation; it ends when cancelled or released.
    func observeOrders(
        on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<OrdersSnapshot, OrdersStoreError>) -> Void
    ) -> ObservationHandle
}

extension OrdersSQLiteStore: OrdersWatching {
    /// Observes the orders kept here as the offline kit observes a collection (the storage's
    /// `OfflineStorage/observe(on:_:)`), with the outbox's status and the copy's date.
    ///
    /// - Parameters:
    ///   - dispatcher: Where `onChange` runs.
    ///   - onChange: Gets each snapshot, or why it cannot be read.
    /// - Returns: The observation; it ends when cancelled or released.
    public func observeOrders(
        on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<OrdersSnapshot, OrdersStoreError>) -> Void
    ) -> ObservationHandle {
        storage.observe(on: dispatcher) { result in
            onChange(
                result.map { OrdersSnapshot(orders: $0.values, syncStatus: $0.status, savedAt: $0.savedAt) }
                    .mapError { OrdersStoreError.wrapping($0, .fetchOrders) })
        }
    }
}

extension FallbackOrdersStore: OrdersWatching {
    /// Observes the orders kept on this device (the offline copy with this device's changes):
    /// a listing, a change made here, a sync and another process show up in it.
    ///
    /// - Parameters:
    ///   - dispatcher: Where `onChange` runs.
    ///   - onChange: Gets each snapshot, or why it cannot be read.
    /// - Returns: The observation; it ends when cancelled or released.
    public func observeOrders(
        on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<OrdersSnapshot, OrdersStoreError>) -> Void
    ) -> ObservationHandle {
        cache.observeOrders(on: dispatcher, onChange)
    }

    /// A scheduler that sends this store's waiting changes by itself (see `SyncScheduler`),
    /// following its outbox: started, it syncs at once, then whenever a change is queued,
    /// connectivity comes back or the app says it is active, with the backoff after failures.
    ///
    /// - Parameters:
    ///   - connectivity: Tells when the shop can be reached; on Linux an `APIProbe`, on Apple
    ///     platforms a `PathMonitorConnectivity`.
    ///   - clock: What it waits with.
    /// - Returns: The scheduler, not started.
    public func makeSyncScheduler(
        connectivity: any ConnectivityMonitor = AssumeReachable(), clock: any SyncClock = SystemSyncClock()
    ) -> SyncScheduler {
        let store = self
        let scheduler = SyncScheduler(connectivity: connectivity, clock: clock) { store.sync() }
        scheduler.follow(cache.outbox)
        return scheduler
    }
}
