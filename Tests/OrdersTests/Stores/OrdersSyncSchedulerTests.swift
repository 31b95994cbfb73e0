import Foundation
import OfflineKit
import OrdersTesting
import Testing

/// `FallbackOrdersStore.makeSyncScheduler`: one scheduler that follows both outboxes, the
/// customers' and the orders'.
@Suite("Orders' sync scheduler")
struct OrdersSyncSchedulerTests {
    /// What the test queues offline, through another store on the same file (as another process
    /// would).
    enum Change: String, CaseIterable, Sendable {
        case customer, order
    }

    @Test("started, it sends by itself a customer or an order queued offline", arguments: Change.allCases)
    func followsBothOutboxes(_ change: Change) async throws {
        // Given: the online store's scheduler, started, idle after its first sync
        let device = try DeviceAndShop()
        let clock = TestClock()
        let scheduler = device.online.makeSyncScheduler(clock: clock)
        let reports = DeliveryRecorder<OutboxSyncReport>()
        let observation = scheduler.observe(on: .inline) { state in
            if state == .idle, let report = scheduler.lastReport { reports.record(report) }
        }
        scheduler.start()
        #expect(await reports.next()?.sent.isEmpty == true)

        // When: a change queued offline
        switch change {
        case .customer:
            let customer = Customer(name: "Carol Cherry", email: "carol.cherry@clean-swift.com")
            _ = await PromiseExpectations.value(of: device.offline.customers.createCustomer(customer))
        case .order:
            _ = await PromiseExpectations.value(of: device.offline.createOrder(validOrder()))
        }

        // Then: after the gathering wait, the scheduler's sync took it to the shop (this shop has
        // no customers API: the customer comes back refused, a 404)
        #expect(await scheduler.waitingToGather(on: clock))
        let report = await reports.next()
        let answered = (report?.sent ?? []) + (report?.refused ?? [])
        #expect(answered.map(\.path) == [change == .customer ? "customers" : "orders"])
        #expect(report?.waiting == 0)
        observation.cancel()
        await scheduler.stop().value
    }
}

extension SyncScheduler {
    /// Waits until the scheduler waits to gather changes, then moves `clock` past that wait.
    fileprivate func waitingToGather(on clock: TestClock) async -> Bool {
        let waiting = DeliveryRecorder<Date>()
        let observation = observe(on: .inline) { state in
            if case .waiting(let until, .changesQueued) = state { waiting.record(until) }
        }
        defer { observation.cancel() }
        guard let until = await waiting.next() else { return false }
        clock.advance(until.timeIntervalSince(clock.now))
        return true
    }
}
