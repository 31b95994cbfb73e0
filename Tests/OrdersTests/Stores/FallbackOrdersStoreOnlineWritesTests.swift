import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// Writes made online: what each does to the offline copy, and what each kind of failure does
/// (queued when the shop cannot be reached, reported when it answered).
@Suite("Orders: online writes")
struct FallbackOrdersStoreOnlineWritesTests {
    enum Write: String, CaseIterable, Sendable {
        case create, update, delete

        /// The request the write sends, as `TestOrdersShop` names it.
        var request: String {
            switch self {
            case .create: "POST /orders"
            case .update: "PUT /orders/shop-amy"
            case .delete: "DELETE /orders/shop-bob"
            }
        }
    }

    /// Makes `write` online on `device`; the order it concerns.
    static func make(_ write: Write, on device: DeviceAndShop) async -> (Promise<Order>, String?) {
        switch write {
        case .create:
            return (device.online.createOrder(validOrder(email: "new@example.com")), nil)
        case .update:
            var amy = DeviceAndShop.amy
            amy.lastName = "Appleton"
            return (device.online.updateOrder(amy), "shop-amy")
        case .delete:
            return (device.online.deleteOrder(id: "shop-bob"), "shop-bob")
        }
    }

    @Test(
        "each write the shop accepted online is in the offline copy, listed offline afterwards",
        arguments: Write.allCases)
    func acceptedWriteReachesTheCopy(write: Write) async throws {
        // Given
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)

        // When
        let (made, _) = await Self.make(write, on: device)
        let order = await PromiseExpectations.value(of: made)
        let offline = await device.listing(device.offline)

        // Then
        #expect(await PromiseExpectations.value(of: device.online.syncStatus()) == .empty)
        switch write {
        case .create:
            #expect(order?.id?.hasPrefix("srv-") == true)
            #expect(offline[order?.id ?? ""]?.email == "new@example.com")
        case .update:
            #expect(offline["shop-amy"]?.lastName == "Appleton")
        case .delete:
            #expect(offline["shop-bob"] == nil && offline["shop-amy"] != nil)
        }
    }

    @Test(
        "a write the shop refuses (4xx) or fails (5xx) online is reported, not queued; one that cannot reach it is queued",
        arguments: Write.allCases)
    func failureClasses(write: Write) async throws {
        for (status, queued) in [(409, false), (500, false), (nil, true)] as [(Int?, Bool)] {
            // Given
            let device = try DeviceAndShop()
            _ = await device.listing(device.online)
            let request = write.request
            if let status {
                device.shop.refuse(request, status: status, body: #"{"error": "no"}"#)
            } else {
                device.server.stop()
            }

            // When
            let (made, _) = await Self.make(write, on: device)
            let outcome: Result<Order, any Error>
            do { outcome = .success(try await made.value) } catch { outcome = .failure(error) }
            let afterwards = await PromiseExpectations.value(of: device.online.syncStatus())

            // Then
            let label = "\(write) with \(status.map(String.init) ?? "no connection")"
            #expect(((try? outcome.get()) != nil) == queued, "\(label): \(outcome)")
            #expect((afterwards?.waiting == 1) == queued, "\(label): \(String(describing: afterwards))")
            #expect(device.shop.applied.isEmpty, "\(label)")
        }
    }

    @Test(
        "one order read online falls back to the copy as the list does (5xx, 429), and a refusal (404) is reported",
        arguments: [(500, true), (503, true), (429, true), (404, false)])
    func singleOrderReadFallsBackAsTheListDoes(status: Int, showsCopy: Bool) async throws {
        // Given: Amy's order kept for offline use, then the shop answers `status`
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        device.shop.refuse("GET /orders/shop-amy", status: status, body: #"{"error": "no"}"#)

        // When
        let outcome: Result<Order, any Error>
        do { outcome = .success(try await device.online.fetchOrder(id: "shop-amy").value) } catch {
            outcome = .failure(error)
        }

        // Then
        #expect(((try? outcome.get())?.email == "amy@example.com") == showsCopy, "\(status): \(outcome)")
    }

    @Test(
        "one order the shop is failing for and the copy does not hold reports the shop's failure, not \"not found\""
    )
    func singleOrderMissingFromTheCopyReportsTheServer() async throws {
        // Given: nothing kept for offline use
        let device = try DeviceAndShop()
        device.shop.refuse("GET /orders/shop-amy", status: 500, body: "")

        // When
        let outcome: Result<Order, any Error>
        do { outcome = .success(try await device.online.fetchOrder(id: "shop-amy").value) } catch {
            outcome = .failure(error)
        }

        // Then
        guard case .failure(let error as OrdersStoreError) = outcome, case .storage(let reason) = error.reason
        else {
            Issue.record("expected a storage failure, got \(outcome)")
            return
        }
        #expect(reason == .httpStatus(500))
    }

    @Test("a create the shop answers 503 is refused, not queued: only an unreachable shop queues it")
    func serverErrorIsNotQueued() async throws {
        // Given
        let device = try DeviceAndShop()
        device.shop.refuse("POST /orders", status: 503, body: #"{"error": "busy"}"#)

        // When
        let error = await PromiseExpectations.error(of: device.online.createOrder(validOrder()))

        // Then
        #expect((error as? OrdersStoreError)?.reason == .storage(.httpStatus(503)))
        #expect(await PromiseExpectations.value(of: device.online.syncStatus()) == .empty)
    }

    @Test(
        "an online delete is conditional on the version kept here: an order the shop changed since is a conflict"
    )
    func deleteIsConditionalOnTheKeptVersion() async throws {
        // Given: Bob's order listed here, then changed in the shop
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        device.shop.editOnServer("shop-bob") { $0.lastName = "Changed" }

        // When
        let error = await PromiseExpectations.error(of: device.online.deleteOrder(id: "shop-bob"))

        // Then: not deleted; the delete waits as a conflict with the shop's copy
        #expect(error != nil)
        #expect(device.shop.storedOrders.contains { $0.id == "shop-bob" })
        let status = await PromiseExpectations.value(of: device.online.syncStatus())
        #expect(status?.conflicted == 1, "\(String(describing: status))")
    }
}
