import Foundation
import OrdersTesting
import Testing

/// Each read policy of the orders store against the shop on a real loopback server and a real
/// SQLite file: what the caller gets, from where, and how many listings the shop was asked for.
@Suite("Orders cache policies")
struct OrdersCachePolicyTests {
    /// How many times the shop was asked for its list.
    func listings(_ device: DeviceAndShop) -> Int {
        device.server.requests.filter { $0.hasPrefix("GET /orders ") }.count
    }

    /// The store's answer with `policy`, and the copies it was shown first.
    func fetch(_ device: DeviceAndShop, _ policy: CachePolicy) async -> (
        Fetched<[Order]>?, [Fetched<[Order]>]
    ) {
        let copies = Shown()
        let fetched = await PromiseExpectations.value(
            of: device.online.fetchOrdersWithSource(policy: policy) { copies.append($0) })
        return (fetched, copies.all)
    }

    /// A device with the shop's list saved as its copy, and a shop that now answers 503.
    func deviceWithCopyAndFailingShop() async throws -> DeviceAndShop {
        let device = try DeviceAndShop()
        _ = await fetch(device, .networkFirst)
        device.shop.refuse("GET /orders", status: 503, body: #"{"error": "busy"}"#)
        return device
    }

    @Test("network first: the shop's list, saved as the copy; one listing")
    func networkFirst() async throws {
        // Given
        let device = try DeviceAndShop()

        // When
        let (fetched, copies) = await fetch(device, .networkFirst)

        // Then
        #expect(fetched?.source == .network)
        #expect(fetched?.value.compactMap(\.id).sorted() == ["shop-amy", "shop-bob"])
        #expect(copies.isEmpty)
        #expect(listings(device) == 1)
    }

    @Test("cache first: a young copy without a listing; a copy older than maxAge, the shop's list")
    func cacheFirst() async throws {
        // Given: a copy saved by one listing
        let device = try DeviceAndShop()
        _ = await fetch(device, .networkFirst)

        // When
        let (young, _) = await fetch(device, .cacheFirst(maxAge: 3600))
        let (old, _) = await fetch(device, .cacheFirst(maxAge: 0))

        // Then
        #expect(young?.source.savedAt != nil && young?.source != .network)
        #expect(young?.value.count == 2)
        #expect(old?.source == .network)
        #expect(listings(device) == 2)
    }

    @Test("cache then network: the copy first, then the shop's list; the promise settles with the last")
    func cacheThenNetwork() async throws {
        // Given: a copy
        let device = try DeviceAndShop()
        _ = await fetch(device, .networkFirst)

        // When
        let (fetched, copies) = await fetch(device, .cacheThenNetwork)

        // Then
        #expect(copies.count == 1)
        #expect(copies.first?.value.count == 2)
        #expect(copies.first?.source != .network)
        #expect(fetched?.source == .network)
        #expect(fetched?.value.count == 2)
        #expect(listings(device) == 2)
    }

    @Test("network only: the shop's refusal even with a copy; cache only: the copy without a listing")
    func networkOnlyAndCacheOnly() async throws {
        // Given: a copy, then a shop that answers 503
        let device = try await deviceWithCopyAndFailingShop()

        // When
        let refused = await PromiseExpectations.error(
            of: device.online.fetchOrdersWithSource(policy: .networkOnly) { _ in })
        let (copy, _) = await fetch(device, .cacheOnly)

        // Then
        #expect((refused as? OrdersStoreError)?.reason == .storage(.httpStatus(503)))
        #expect(copy?.value.count == 2)
        #expect(copy?.source != .network)
        #expect(listings(device) == 2)
    }

    @Test("network first, the shop down: the copy and why; network only: the error")
    func networkFirstFallsBack() async throws {
        // Given
        let device = try await deviceWithCopyAndFailingShop()

        // When
        let (fetched, _) = await fetch(device, .networkFirst)

        // Then
        guard case .cache(_, let reason)? = fetched?.source else {
            Issue.record("expected the copy, got \(String(describing: fetched?.source))")
            return
        }
        #expect(reason == .httpStatus(503))
        #expect(fetched?.value.count == 2)
    }

    /// The copies a store showed first, from any thread.
    final class Shown: @unchecked Sendable {
        // `@unchecked Sendable` is sound: `shown` is only touched while `lock` is held.
        private let lock = NSLock()
        private var shown: [Fetched<[Order]>] = []

        func append(_ fetched: Fetched<[Order]>) {
            lock.withLock { shown.append(fetched) }
        }

        var all: [Fetched<[Order]>] {
            lock.withLock { shown }
        }
    }
}
