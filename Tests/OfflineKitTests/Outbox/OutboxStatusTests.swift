import Foundation
import Services
import Testing

@testable import OfflineKit

/// What a screen shows of the outbox (`OutboxStatus.swift`): each kind of held change counted
/// once, and only the rest as waiting.
@Suite("Outbox status")
struct OutboxStatusTests {
    static func entry(_ sequence: Int64, _ id: String, _ state: OutboxEntry.State) -> OutboxEntry {
        OutboxEntry(
            sequence: sequence, localID: id, method: .put, path: "notes/\(id)", body: nil,
            idempotencyKey: "k\(sequence)", state: state, createdAt: Date(timeIntervalSince1970: 0))
    }

    @Test("one change of each kind, and one missing: one waits, one of each is held")
    func eachKindCountedOnce() {
        // Given
        let entries = [
            Self.entry(1, "a", .pending),
            Self.entry(2, "b", .refused(reason: "no")),
            Self.entry(3, "c", .stuck(lastError: "503")),
            Self.entry(4, "d", .conflicted(theirs: nil, deletedOnServer: true)),
        ]

        // When
        let status = OutboxStatus(entries: entries, changedHere: ["e"])

        // Then
        #expect(status.waiting == 1)
        let held = [status.refused, status.stuck, status.conflicted, status.damaged]
        #expect(held == [Int](repeating: 1, count: 4))
        #expect(status.held == 4)
    }
}
