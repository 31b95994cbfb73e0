import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// A write sent whose answer never came: the shop applied it, and the device cannot know. It is
/// kept waiting under its idempotency key, never reported as failed, and the next sync sends the
/// same key, so the shop holds it once.
@Suite("Orders: writes whose answer was lost")
struct UnknownOutcomeTests {
    enum Loss: String, CaseIterable, Sendable {
        case emptyReply, reset, answeredAfterTimeout

        var reply: TestHTTPServer.Reply {
            switch self {
            case .emptyReply: .closeWithoutAnswer
            case .reset: .reset
            // Past the client's 2 s timeout: the server is slow, the test does not wait on it.
            case .answeredAfterTimeout: .slowHeaders(seconds: 5, then: .never)
            }
        }

        /// The writing client's timeout: short only where the loss is a timeout. A short one where
        /// the server answers at once could fire before a busy machine lets the server read the
        /// write, and the loss would then fall on the sync's request instead.
        var timeout: TimeInterval {
            self == .answeredAfterTimeout ? 2 : 5
        }
    }

    @Test(
        "a write applied by the shop whose answer was lost is kept waiting, and after sync the shop holds it once",
        arguments: Loss.allCases, FallbackOrdersStoreOnlineWritesTests.Write.allCases)
    func lostAnswerIsKept(loss: Loss, write: FallbackOrdersStoreOnlineWritesTests.Write) async throws {
        // Given: the copy listed, then the shop loses the answer to the write
        let device = try DeviceAndShop()
        _ = await device.listing(device.online)
        device.shop.loseAnswer(to: write.request, with: loss.reply)
        let impatient = FallbackOrdersStore(
            api: OrdersAPI(
                client: APIClient(baseURL: device.server.baseURL, timeout: loss.timeout, retry: .never)),
            cache: device.cache)

        // When
        let made: Promise<Order> =
            switch write {
            case .create: impatient.createOrder(validOrder(email: "new@example.com"))
            case .update: impatient.updateOrder(Self.renamedAmy)
            case .delete: impatient.deleteOrder(id: "shop-bob")
            }
        let outcome: Result<Order, any Error>
        do { outcome = .success(try await made.value) } catch { outcome = .failure(error) }
        let waiting = await PromiseExpectations.value(of: device.online.syncStatus())?.waiting
        let report = await PromiseExpectations.value(of: device.online.sync())
        let listed = await device.listing(device.online)

        // Then: not reported as failed; waiting; sent once more under the same key, applied once
        let label = "\(write) with \(loss)"
        #expect((try? outcome.get()) != nil, "\(label): \(outcome)")
        #expect(waiting == 1, "\(label)")
        #expect(report?.sent.count == 1, "\(label): \(String(describing: report))")
        #expect(device.shop.applied.count == 1, "\(label): \(device.shop.applied)")
        switch write {
        case .create:
            #expect(device.shop.storedOrders.filter { $0.email == "new@example.com" }.count == 1, "\(label)")
            #expect(listed.values.filter { $0.email == "new@example.com" }.count == 1, "\(label)")
        case .update:
            #expect(
                device.shop.storedOrders.first { $0.id == "shop-amy" }?.lastName == "Appleton", "\(label)")
        case .delete:
            #expect(
                !device.shop.storedOrders.contains { $0.id == "shop-bob" } && listed["shop-bob"] == nil,
                "\(label)")
        }
    }

    @Test("an order deleted here while its create was in flight stays hidden when the shop names it")
    func deletionSurvivesTheRename() async throws {
        // Given: a create whose answer was lost, deleted here while it may be in the shop; the shop
        // will refuse the delete, so the order keeps its mark under the shop's identifier
        let device = try DeviceAndShop()
        device.shop.loseAnswer(to: "POST /orders", with: .reset)
        let created = try #require(
            await PromiseExpectations.value(
                of: device.online.createOrder(validOrder(email: "gone@example.com"))))
        _ = await PromiseExpectations.value(of: device.offline.deleteOrder(id: created.id ?? ""))
        device.shop.refuse(matching: { $0.method == "DELETE" }, status: 409, body: #"{"error": "kept"}"#)

        // When
        let report = await PromiseExpectations.value(of: device.online.sync())
        let listed = await device.listing(device.offline)

        // Then: the create arrived once, the delete waits refused, and the order is not shown
        #expect(device.shop.storedOrders.filter { $0.email == "gone@example.com" }.count == 1)
        #expect(report?.refused.count == 1, "\(String(describing: report))")
        #expect(!listed.values.contains { $0.email == "gone@example.com" }, "\(listed.keys.sorted())")
    }

    static var renamedAmy: Order {
        var amy = DeviceAndShop.amy
        amy.lastName = "Appleton"
        return amy
    }
}
