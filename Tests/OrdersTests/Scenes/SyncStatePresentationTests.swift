import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// Outbox entries for the screens to show.
enum Entries {
    static let waiting = OutboxEntry(
        sequence: 1, localID: "local-1", method: .post, path: "orders", body: nil, idempotencyKey: "k1",
        state: .pending, createdAt: Date(timeIntervalSince1970: 0))
    static let refused = OutboxEntry(
        sequence: 2, localID: "abc123", method: .put, path: "orders/abc123", body: nil, idempotencyKey: "k2",
        state: .refused(reason: "HTTP 409: taken"), createdAt: Date(timeIntervalSince1970: 0))
    static let alsoWaiting = OutboxEntry(
        sequence: 3, localID: "abc123", method: .delete, path: "orders/abc123", body: nil,
        idempotencyKey: "k3",
        state: .pending, createdAt: Date(timeIntervalSince1970: 0))
}

/// What the orders screens say about changes the shop does not have yet.
@Suite("Sync state on screen")
@MainActor
struct SyncStatePresentationTests {
    @Test(
        "the list's notice counts the changes that wait and those refused",
        arguments: [
            ([OutboxEntry](), nil),
            ([Entries.waiting], "1 change waiting to be sent."),
            ([Entries.waiting, Entries.alsoWaiting], "2 changes waiting to be sent."),
            ([Entries.refused], "1 change refused by the shop: retry or discard."),
            (
                [Entries.waiting, Entries.refused, Entries.alsoWaiting],
                "2 changes waiting to be sent. 1 change refused by the shop: retry or discard."
            ),
        ] as [([OutboxEntry], String?)])
    func listNotice(entries: [OutboxEntry], notice: String?) {
        // Given
        let output = ListOrdersPresenterOutputSpy()
        let presenter = ListOrdersPresenter(
            worker: OrdersWorker(ordersStore: OrdersMemStore(orders: [])), output: output,
            formatter: pinnedFormatter)

        // When
        presenter.presentFetchedOrders(
            response: ListOrders.FetchOrders.Response(orders: [], syncStatus: OutboxStatus(entries: entries)))

        // Then
        #expect(output.fetchOrdersViewModel?.syncNotice == notice)
    }

    @Test("each order says whether the shop has it: synced, waiting, or refused with the reason")
    func perOrderState() {
        // Given
        let output = ListOrdersPresenterOutputSpy()
        let presenter = ListOrdersPresenter(
            worker: OrdersWorker(ordersStore: OrdersMemStore(orders: [])), output: output,
            formatter: pinnedFormatter)
        var local = seedOrder
        local.id = "local-1"
        var other = seedOrder
        other.id = "def456"

        // When
        presenter.presentFetchedOrders(
            response: ListOrders.FetchOrders.Response(
                orders: [local, seedOrder, other],
                syncStatus: OutboxStatus(entries: [Entries.waiting, Entries.alsoWaiting, Entries.refused])))

        // Then: a refused change wins over one that waits behind it
        #expect(
            output.fetchOrdersViewModel?.displayedOrders.map(\.syncState) == [
                .pending, .refused(reason: "HTTP 409: taken"), .synced,
            ])
    }

    @Test("an order kept on this device says so when created; one the shop has says nothing")
    func createdNotice() {
        // Given
        let output = CreateOrderDisplayLogicSpy()
        let presenter = CreateOrderPresenter(
            worker: OrdersWorker(ordersStore: OrdersMemStore(orders: [])), output: output,
            formatter: pinnedFormatter)

        // When / Then
        presenter.presentCreatedOrder(
            response: CreateOrder.CreateOrder.Response(order: seedOrder, syncState: .pending))
        #expect(
            output.createOrderViewModel?.notice
                == "Saved on this device; it will be sent when the shop can be reached.")
        presenter.presentCreatedOrder(response: CreateOrder.CreateOrder.Response(order: seedOrder))
        #expect(output.createOrderViewModel?.notice == nil)
    }

    @Test("creating offline through the presenter shows the order with the waiting notice")
    func createOfflineThroughThePresenter() async throws {
        // Given
        let device = try DeviceAndShop()
        let output = CreateOrderDisplayLogicSpy()
        let presenter = CreateOrderPresenter(
            worker: OrdersWorker(ordersStore: device.offline), output: output, formatter: pinnedFormatter,
            now: { day(2026, 11, 20) })

        // When
        let created = await PromiseExpectations.value(
            of: presenter.createOrder(request: CreateOrder.CreateOrder.Request(order: validOrder())))

        // Then
        #expect(created?.id != nil)
        #expect(output.createOrderViewModel?.displayedOrder?.id == created?.id)
        #expect(output.createOrderViewModel?.notice?.hasPrefix("Saved on this device") == true)
    }
}

/// A store that emulates each read policy: the copy first when asked to, then `final`.
final class PolicyOrdersStoreMock: OrdersStore, @unchecked Sendable {
    // `@unchecked Sendable` is sound: `policies` is only touched while holding `lock`.
    private let lock = NSLock()
    private var policies: [CachePolicy] = []
    private let store = OrdersMemStore(orders: [])
    let copy: Fetched<[Order]>
    let final: Fetched<[Order]>

    init(copy: Fetched<[Order]>, final: Fetched<[Order]>) {
        self.copy = copy
        self.final = final
    }

    var askedPolicies: [CachePolicy] { lock.withLock { policies } }

    func fetchOrders() -> Promise<[Order]> { .value(final.value) }
    func fetchOrder(id: String) -> Promise<Order> { store.fetchOrder(id: id) }
    func createOrder(_ order: Order) -> Promise<Order> { store.createOrder(order) }
    func updateOrder(_ order: Order) -> Promise<Order> { store.updateOrder(order) }
    func deleteOrder(id: String) -> Promise<Order> { store.deleteOrder(id: id) }

    func fetchOrdersWithSource(
        policy: CachePolicy, showingCopy: @escaping @Sendable (Fetched<[Order]>) -> Void
    ) -> Promise<Fetched<[Order]>> {
        lock.withLock { policies.append(policy) }
        if policy == .cacheThenNetwork { showingCopy(copy) }
        return .value(final)
    }
}
