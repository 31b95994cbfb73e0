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
}
