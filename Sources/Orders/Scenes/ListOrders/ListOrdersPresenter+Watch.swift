import Foundation
public import Promises
public import Services

extension ListOrdersPresenter {
    /// Fetches the orders as ``fetchOrders(request:)`` does, and keeps the screen following them
    /// afterwards: the screen is told again whenever the orders kept on this device or their sync
    /// state change (a change made on another screen, a sync sending what waited, another process
    /// writing the same file), with the sync notice ("2 changes waiting to be sent", "1 change in
    /// conflict ...", or `OrdersSyncWording.nothingWaits` once everything was sent).
    ///
    /// Keep the observation for as long as the screen is shown; release or cancel it when the
    /// screen goes. With a store that keeps nothing to watch (memory, the API alone) it is `nil`
    /// and the screen is told once, as by ``fetchOrders(request:)``.
    ///
    /// - Returns: The fetch's promise (as ``fetchOrders(request:)`` gives it) and the observation.
    public func watchOrders() -> (
        loaded: Promise<ListOrders.FetchOrders.ViewModel>, observation: ObservationHandle?
    ) {
        watching = true
        watchFetchRuns = true
        let loaded = fetchOrders().ensure {
            // What changed while the fetch ran (its own save, a sync) is shown after it.
            self.watchFetchRuns = false
            if let snapshot = self.snapshotDuringFetch { self.show(snapshot) }
            self.snapshotDuringFetch = nil
        }
        let observation = worker.observeOrders(on: DispatchQueue.main) { [weak self] result in
            MainActor.assumeIsolated { self?.watched(result) }
        }
        return (loaded, observation)
    }

    private func watched(_ result: Result<OrdersSnapshot, OrdersStoreError>) {
        if watchFetchRuns {
            snapshotDuringFetch = result
        } else {
            show(result)
        }
    }

    /// Shows a snapshot of the watched orders: with the notice of the fetch while they are the
    /// orders it showed (only their sync state changed), else as the copy saved on this device.
    private func show(_ result: Result<OrdersSnapshot, OrdersStoreError>) {
        switch result {
        case .success(let snapshot):
            if snapshot.orders != shownOrders {
                fetchedSource = nil
                shownOrders = snapshot.orders
            }
            let source = fetchedSource ?? snapshot.savedAt.map { DataSource.stored(savedAt: $0) } ?? .network
            let fetched = Fetched(value: snapshot.orders, source: source)
            present(fetched, snapshot.syncStatus, refreshing: false, watching: true)
        case .failure(let error):
            output?.displayFetchOrdersError(message: error.userMessage)
        }
    }
}
