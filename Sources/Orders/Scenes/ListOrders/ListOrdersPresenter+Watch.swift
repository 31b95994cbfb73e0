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
        let (worker, policy) = (worker, cachePolicy)
        let (loaded, observation) = listLoad(watching: true).watch { showingCopy in
            Self.fetch(worker, policy, showingCopy: showingCopy)
        } following: { changed in
            worker.observeOrders(on: .inline) { result in
                guard case .success(let snapshot) = result else { return }
                changed(
                    Fetched(
                        value: ListedOrders(orders: snapshot.orders, status: snapshot.syncStatus),
                        source: snapshot.savedAt.map { .stored(savedAt: $0) } ?? .network))
            }
        }
        return (shownViewModel(loaded), observation)
    }
}
