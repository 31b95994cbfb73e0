import Foundation
import OfflineKit
import Services
import Testing

/// Identifiers compare as bytes where they are keys (`IdentifierKey.swift`): two that differ only
/// in Unicode normalisation are two resources, as they are to the API and to SQLite.
@Suite("IdentifierKey")
struct IdentifierKeyTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    @Test("two normalisations of one text are equal strings but two keys")
    func normalisationTwinsAreTwoKeys() {
        // Given / When
        let keys: Set<IdentifierKey> = [IdentifierKey(Self.composed), IdentifierKey(Self.decomposed)]

        // Then
        #expect(Self.composed == Self.decomposed)  // why the type exists
        #expect(keys.count == 2)
        #expect(!Self.composed.isSameIdentifier(as: Self.decomposed))
        #expect(Self.composed.isSameIdentifier(as: "caf\u{E9}"))
    }

    @Test("the outbox status keeps the state of each twin apart")
    func statusKeepsTwinsApart() {
        // Given
        func entry(_ sequence: Int64, _ id: String, _ state: OutboxEntry.State) -> OutboxEntry {
            OutboxEntry(
                sequence: sequence, localID: id, method: .put, path: "notes/\(id)", body: nil,
                idempotencyKey: "k\(sequence)", state: state, createdAt: Date(timeIntervalSince1970: 0))
        }

        // When
        let status = OutboxStatus(entries: [
            entry(1, Self.composed, .refused(reason: "no")), entry(2, Self.decomposed, .pending),
        ])

        // Then
        #expect(status.state(of: Self.composed) == .refused(reason: "no"))
        #expect(status.state(of: Self.decomposed) == .pending)
    }
}
