import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// A list screen that records every view model it is given.
@MainActor
final class WatchingOrdersView: ListOrdersDisplayLogic {
    let shown = DeliveryRecorder<ListOrders.FetchOrders.ViewModel>()
    let errors = DeliveryRecorder<String>()

    func displayFetchedOrders(viewModel: ListOrders.FetchOrders.ViewModel) { shown.record(viewModel) }
    func displayFetchOrdersError(message: String) { errors.record(message) }
}

/// A watching orders list follows its data: changes made here, a sync, another writer.
@Suite("ListOrdersPresenter: watching")
@MainActor
struct ListOrdersWatchTests {
    /// The shop's orders listed once on `device`, then a screen watching them offline, its first
    /// fetch ended. Keep the presenter: it drives the screen.
    static func watching(_ device: DeviceAndShop) async -> (
        WatchingOrdersView, ListOrdersPresenter, ObservationHandle?
    ) {
        _ = await device.listing(device.online)
        let view = WatchingOrdersView()
        let presenter = ListOrdersPresenter(
            worker: OrdersWorker(ordersStore: device.offline), output: view, formatter: pinnedFormatter)
        let (loaded, observation) = presenter.watchOrders()
        _ = await PromiseExpectations.value(of: loaded)
        return (view, presenter, observation)
    }

    @Test(
        "the screen is told again when an order is saved offline, then when the sync sent it, with the sync notice each time"
    )
    func followsChangesAndSync() async throws {
        // Given: the shop's orders listed once, then a watching screen
        let device = try DeviceAndShop()
        let (view, presenter, observation) = await Self.watching(device)
        let first = await view.shown.next()
        #expect(first?.displayedOrders.count == 2)
        #expect(first?.syncNotice == OrdersSyncWording.nothingWaits)

        // When: an order is created offline
        _ = await PromiseExpectations.value(of: device.offline.createOrder(validOrder()))
        // Then
        let waiting = await view.shown.next(where: { $0.displayedOrders.count == 3 })
        #expect(waiting?.syncNotice == "1 change waiting to be sent.")
        #expect(waiting?.displayedOrders.contains { $0.syncState == .pending } == true)

        // When: the sync sends it
        _ = await PromiseExpectations.value(of: device.online.sync())
        // Then
        let sent = await view.shown.next(where: { $0.syncNotice == OrdersSyncWording.nothingWaits })
        #expect(sent?.displayedOrders.count == 3)
        #expect(sent?.displayedOrders.allSatisfy { $0.syncState == .synced } == true)
        #expect(device.shop.storedOrders.count == 3)
        withExtendedLifetime(presenter) { observation?.cancel() }
    }

    @Test(
        "an order written through another connection to the file appears; after cancelling, nothing more is shown"
    )
    func anotherWriterAppears() async throws {
        // Given
        let device = try DeviceAndShop()
        let (view, presenter, observation) = await Self.watching(device)
        _ = await view.shown.next()
        // When: another process's store on the same file saves an order
        let other = OrdersSQLiteStore(database: try Database(at: device.folder.file("orders.sqlite")))
        _ = await PromiseExpectations.value(of: other.createOrder(validOrder(email: "other@example.com")))
        // Then
        let seen = await view.shown.next(where: { $0.displayedOrders.count == 3 })
        #expect(seen?.displayedOrders.contains { $0.email == "other@example.com" } == true)
        withExtendedLifetime(presenter) { observation?.cancel() }
        let count = view.shown.all.count
        _ = await PromiseExpectations.value(of: other.createOrder(validOrder(email: "late@example.com")))
        _ = await PromiseExpectations.value(of: device.offline.fetchOrders())
        #expect(view.shown.all.count == count)
    }

    @Test("a screen watching the newest order is shown one order, then the newer one made offline")
    func watchesTheNewestOrders() async throws {
        // Given: the shop's two orders listed once, then a screen watching the newest one
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        let view = WatchingOrdersView()
        let presenter = ListOrdersPresenter(
            worker: OrdersWorker(ordersStore: device.offline), output: view, formatter: pinnedFormatter)
        let (loaded, observation) = presenter.watchOrders(first: 1)
        let shown = await PromiseExpectations.value(of: loaded)

        // When: an order newer than both is created offline
        let created = await PromiseExpectations.value(of: device.offline.createOrder(validOrder()))

        // Then: one order each time, the newest
        #expect(shown?.displayedOrders.map(\.id) == [DeviceAndShop.bob.id ?? ""])
        let newer = await view.shown.next(where: { $0.displayedOrders.first?.id == created?.id })
        #expect(newer?.displayedOrders.count == 1)
        #expect(newer?.syncNotice == "1 change waiting to be sent.")
        withExtendedLifetime(presenter) { observation?.cancel() }
    }

    @Test("a store that keeps nothing to watch tells the screen once, with no observation")
    func memoryStoreIsNotWatched() async {
        // Given
        let view = WatchingOrdersView()
        let presenter = ListOrdersPresenter(
            worker: OrdersWorker(ordersStore: OrdersMemStore(orders: [seedOrder])), output: view,
            formatter: pinnedFormatter)
        // When
        let (loaded, observation) = presenter.watchOrders()
        // Then
        #expect(observation == nil)
        #expect(await PromiseExpectations.value(of: loaded)?.displayedOrders.count == 1)
    }

    @Test("a change seen while the first fetch runs is shown once the fetch has been shown")
    func changeDuringTheFetch() async {
        // Given: a store whose fetch waits for the test, and which reports a change meanwhile
        let store = HeldFetchStore()
        let view = WatchingOrdersView()
        let presenter = ListOrdersPresenter(
            worker: OrdersWorker(ordersStore: store), output: view, formatter: pinnedFormatter)
        let (loaded, observation) = presenter.watchOrders()
        await store.observed.next()
        // When: the fetch ends with one order, while the store holds two
        store.finishFetch([seedOrder])
        _ = await PromiseExpectations.value(of: loaded)
        // Then: the fetch's list, then the change
        #expect(await view.shown.next()?.displayedOrders.count == 1)
        #expect(await view.shown.next()?.displayedOrders.count == 2)
        observation?.cancel()
    }
}

extension ListOrdersWatchTests {
    @Test("a change of sync state alone keeps the fetch's notice: fresh orders are not called a saved copy")
    func syncStateChangeKeepsTheNotice() async {
        // Given: a fetch that answers from the shop, and a watch that then sees the same orders
        // with a change waiting
        let store = HeldFetchStore(observedStatus: OutboxStatus(entries: [Entries.waiting]))
        let view = WatchingOrdersView()
        let presenter = ListOrdersPresenter(
            worker: OrdersWorker(ordersStore: store), output: view, formatter: pinnedFormatter)
        let (loaded, observation) = presenter.watchOrders()
        await store.observed.next()
        // When
        store.finishFetch(HeldFetchStore.watched)
        _ = await PromiseExpectations.value(of: loaded)
        // Then: the fetch's list, then the same orders with the change waiting, neither with a notice
        #expect(await view.shown.next()?.notice == nil)
        let waiting = await view.shown.next()
        #expect(waiting?.syncNotice == "1 change waiting to be sent.")
        #expect(waiting?.notice == nil)
        observation?.cancel()
    }
}

/// A store whose fetch the test ends, and whose watched orders are two from the start.
final class HeldFetchStore: OrdersStore, @unchecked Sendable {
    // `@unchecked Sendable` is sound: `fetch` is set in `init` and only settled afterwards.
    private let fetch = Promise<[Order]>.pending()
    let observed = DeliveryRecorder<Void>()
    /// The status the observation reports with its two orders.
    let observedStatus: OutboxStatus

    init(observedStatus: OutboxStatus = .empty) {
        self.observedStatus = observedStatus
    }

    /// The two orders the observation reports.
    static var watched: [Order] {
        var other = seedOrder
        other.id = "def456"
        return [seedOrder, other]
    }

    func finishFetch(_ orders: [Order]) { fetch.seal.fulfill(orders) }
    func fetchOrders() -> Promise<[Order]> { fetch.promise }
    func fetchOrder(id: String) -> Promise<Order> {
        Promise(error: OrdersStoreError(.fetchOrder, .notFound(id: id)))
    }
    func createOrder(_ order: Order) -> Promise<Order> { .value(order) }
    func updateOrder(_ order: Order) -> Promise<Order> { .value(order) }
    func deleteOrder(id: String) -> Promise<Order> {
        Promise(error: OrdersStoreError(.deleteOrder, .notFound(id: id)))
    }

    func watchOrders(
        on dispatcher: any Dispatcher,
        _ onChange: @escaping @Sendable (Result<OrdersSnapshot, OrdersStoreError>) -> Void
    ) -> ObservationHandle? {
        let snapshot = OrdersSnapshot(orders: Self.watched, syncStatus: observedStatus, savedAt: Date())
        let observed = observed
        dispatcher.dispatch {
            onChange(.success(snapshot))
            observed.record(())
        }
        return ObservationHandle(end: {})
    }
}
