import Foundation
import OrdersTesting
import Testing

@Suite("List orders: cache policies")
@MainActor
struct ListOrdersPolicyTests {
    static let savedAt = day(2007, 6, 29)
    static let copy = Fetched(value: [seedOrder], source: .stored(savedAt: day(2007, 6, 29)))

    @Test(
        "cache then network: the copy with a refreshing notice, then the fresh orders; settles after the last"
    )
    func cacheThenNetwork() async {
        // Given
        var second = seedOrder
        second.id = "def456"
        let store = PolicyOrdersStoreMock(
            copy: Self.copy, final: Fetched(value: [seedOrder, second], source: .network))
        let output = RecordingOrdersOutput()
        let presenter = ListOrdersPresenter(
            worker: OrdersWorker(ordersStore: store), output: output, formatter: pinnedFormatter,
            now: { day(2007, 6, 29).addingTimeInterval(120) }, cachePolicy: .cacheThenNetwork)

        // When
        let shown = await PromiseExpectations.value(of: presenter.fetchOrders())

        // Then
        #expect(store.askedPolicies == [.cacheThenNetwork])
        #expect(output.shown.map(\.displayedOrders.count) == [1, 2])
        #expect(
            output.shown.map(\.notice) == ["Showing orders saved 2 minutes ago; refreshing…", nil])
        #expect(shown?.displayedOrders.count == 2)
    }

    @Test("cache only and cache first show the copy and say since when; fresh orders not saved say so")
    func otherNotices() async {
        for (policy, final, notice) in [
            (CachePolicy.cacheOnly, Self.copy, "Showing orders saved 2 minutes ago."),
            (
                .networkFirst,
                Fetched(
                    value: [seedOrder], source: .network,
                    cacheWriteError: .storageFailed(reason: "x.sqlite: locked")),
                "Fresh, but they could not be saved for offline use: x.sqlite: locked"
            ),
        ] as [(CachePolicy, Fetched<[Order]>, String)] {
            // Given
            let output = RecordingOrdersOutput()
            let presenter = ListOrdersPresenter(
                worker: OrdersWorker(ordersStore: PolicyOrdersStoreMock(copy: Self.copy, final: final)),
                output: output, formatter: pinnedFormatter, now: { day(2007, 6, 29).addingTimeInterval(120) },
                cachePolicy: policy)

            // When
            _ = await PromiseExpectations.value(of: presenter.fetchOrders())

            // Then
            #expect(output.shown.map(\.notice) == [notice])
        }
    }
}

/// Records every view model the list was shown, in order.
final class RecordingOrdersOutput: ListOrdersDisplayLogic {
    var shown: [ListOrders.FetchOrders.ViewModel] = []
    var errors: [String] = []

    func displayFetchedOrders(viewModel: ListOrders.FetchOrders.ViewModel) {
        shown.append(viewModel)
    }

    func displayFetchOrdersError(message: String) {
        errors.append(message)
    }
}
