import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit

/// When watching the outbox wakes the sync (`Outbox+Observe.swift`): only when it grew.
@Suite("Outbox observation")
struct OutboxObserveTests {
    typealias Mark = Outbox.QueueMark

    @Test("a change queued, or one more sendable, is news; a write that moves neither is not")
    func growthOnly() {
        // Given
        let before = Mark(newest: 5, sendable: 2)

        // When / Then
        #expect(Mark(newest: 6, sendable: 2).grew(since: before))
        #expect(Mark(newest: 5, sendable: 3).grew(since: before))
        // A failure counted, or the held change's row rewritten: the same mark.
        #expect(!Mark(newest: 5, sendable: 2).grew(since: before))
        // A change sent and deleted.
        #expect(!Mark(newest: 5, sendable: 1).grew(since: before))
        #expect(!Mark(newest: 4, sendable: 2).grew(since: before))
    }

    @Test("watching the outbox calls back when a change is queued, not when one leaves it")
    func wakesOnGrowthOnly() async throws {
        // Given: two changes queued, and the outbox watched on a queue of the test's, its first mark
        // taken
        let (database, outbox) = try OutboxTests.notes()
        await OutboxTests.write(database, outbox, .put, id: "a")
        await OutboxTests.write(database, outbox, .put, id: "b")
        let watcher = DispatchQueue(label: "watcher")
        let calls = Locked(0)
        let observation = outbox.observeQueued(on: watcher) { calls.withLock { $0 += 1 } }
        defer { observation.cancel() }
        await Self.delivered(database, watcher)

        // When: the newest change leaves the outbox (as one sent does), then another is queued,
        // each mark taken before the next write (a mark not yet taken is replaced by the next)
        _ = await PromiseExpectations.value(
            of: database.write { try $0.execute("DELETE FROM outbox WHERE local_id = 'b'") })
        await Self.delivered(database, watcher)
        await OutboxTests.write(database, outbox, .put, id: "c")
        await Self.delivered(database, watcher)

        // Then: the mark moved twice, and only the second move was growth
        #expect(calls.withLock { $0 } == 1)
    }

    /// Waits until the watcher took the mark of every commit so far: each commit's read runs on the
    /// database's queue before a read asked for after it, and hands its mark to the watcher's queue
    /// before a block queued after that.
    static func delivered(_ database: Database, _ watcher: DispatchQueue) async {
        _ = await PromiseExpectations.value(of: database.read { _ in })
        await withCheckedContinuation { done in watcher.async { done.resume() } }
    }
}
