import Foundation
import OrdersTesting
import Testing

/// A list screen that shows pages, and remembers each.
@MainActor
final class PagedOrdersScreen: ListOrdersDisplayLogic {
    var pages: [ListOrders.FetchOrdersPage.ViewModel] = []
    var errors: [String] = []
    var fullListings = 0

    func displayFetchedOrders(viewModel: ListOrders.FetchOrders.ViewModel) { fullListings += 1 }
    func displayFetchOrdersError(message: String) { errors.append(message) }
    func displayOrdersPage(viewModel: ListOrders.FetchOrdersPage.ViewModel) { pages.append(viewModel) }
}

@Suite("List orders a page at a time")
@MainActor
struct ListOrdersPresenterPagesTests {
    @Test("each page is formatted as a full listing's rows and shown, with where the next starts")
    func pagesAreFormattedAndShown() async throws {
        // Given: three orders, the screen listing two at a time
        let orders = [seedOrder, DeviceAndShop.amy, DeviceAndShop.bob]
        let worker = OrdersWorker(ordersStore: OrdersMemStore(orders: orders))
        let screen = PagedOrdersScreen()
        let presenter = ListOrdersPresenter(worker: worker, output: screen, formatter: pinnedFormatter)
        let full = presenter.presentFetchedOrders(response: ListOrders.FetchOrders.Response(orders: orders))

        // When
        let first = await PromiseExpectations.value(of: presenter.fetchOrdersPage(after: nil, limit: 2))
        let second = await PromiseExpectations.value(
            of: presenter.fetchOrdersPage(after: first?.next, limit: 2))

        // Then: newest first, the same rows as the full listing's, the count on the first page
        #expect(screen.pages == [first, second].compactMap { $0 })
        #expect(screen.pages.flatMap(\.displayedOrders).map(\.id) == ["shop-bob", "shop-amy", "abc123"])
        #expect(
            screen.pages.flatMap(\.displayedOrders).sorted { $0.id < $1.id }
                == full.displayedOrders.sorted { $0.id < $1.id })
        #expect(first?.count == 3)
        #expect(first?.next != nil)
        #expect(second?.count == nil)
        #expect(second?.next == nil)
        #expect(screen.errors.isEmpty)
    }

    /// Asks for the first page of `store`'s orders, which it cannot give: the screen and the error.
    func firstPageRefused(by store: some OrdersStore) async -> (PagedOrdersScreen, (any Error)?) {
        let screen = PagedOrdersScreen()
        let presenter = ListOrdersPresenter(
            worker: OrdersWorker(ordersStore: store), output: screen, formatter: pinnedFormatter)
        return (screen, await PromiseExpectations.error(of: presenter.fetchOrdersPage()))
    }

    @Test("a page that cannot be read shows the error and shows no page")
    func failedPageShowsTheError() async throws {
        // Given / When: a store that fails every read
        let (screen, error) = await firstPageRefused(by: FailingOrdersStore())

        // Then
        #expect(error is OrdersStoreError)
        #expect(screen.errors.count == 1)
        #expect(screen.pages.isEmpty)
    }

    @Test("a page whose read was cancelled shows no error: the screen asked for it to stop")
    func cancelledPageShowsNoError() async throws {
        // Given / When: a store whose read is cancelled
        let (screen, error) = await firstPageRefused(by: CancelledOrdersStore())

        // Then: the promise says so, the screen is told nothing
        #expect(error?.isCancellation == true)
        #expect(screen.errors.isEmpty)
        #expect(screen.pages.isEmpty)
    }
}
