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
        watching(first: nil)
    }

    /// ``watchOrders()`` for a screen that shows the newest `limit` orders: the list shown and
    /// each one read after a change hold at most `limit` orders, read as a page through the
    /// copy's index (see `OrdersStore.watchOrders(first:on:_:)`), so that a copy of any size (a
    /// change feed that never ends, say) costs the screen one page a change, never every order.
    ///
    /// - Parameter limit: How many of the newest orders the screen shows at most.
    /// - Returns: The fetch's promise and the observation.
    public func watchOrders(first limit: Int) -> (
        loaded: Promise<ListOrders.FetchOrders.ViewModel>, observation: ObservationHandle?
    ) {
        watching(first: max(1, limit))
    }

    /// The watch, of every order or of the newest `limit`.
    private func watching(first limit: Int?) -> (
        loaded: Promise<ListOrders.FetchOrders.ViewModel>, observation: ObservationHandle?
    ) {
        let (worker, policy) = (worker, cachePolicy)
        let (loaded, observation) = listLoad(watching: true).watch { showingCopy in
            Self.fetch(worker, policy, first: limit, showingCopy: showingCopy)
        } following: { changed in
            let delivered: @Sendable (Result<OrdersSnapshot, OrdersStoreError>) -> Void = { result in
                guard case .success(let snapshot) = result else { return }
                changed(
                    Fetched(
                        value: ListedOrders(orders: snapshot.orders, status: snapshot.syncStatus),
                        source: snapshot.savedAt.map { .stored(savedAt: $0) } ?? .network))
            }
            if let limit { return worker.observeOrders(first: limit, on: .inline, delivered) }
            return worker.observeOrders(on: .inline, delivered)
        }
        return (shownViewModel(loaded), observation)
    }
}
