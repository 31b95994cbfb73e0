import Foundation
import Testing

@testable import OfflineKit
@testable import Services

/// The sentences any feature shows about the changes made on this device.
@Suite("SyncNotice")
struct SyncNoticeTests {
    static func waiting(_ count: Int) -> OutboxStatus {
        OutboxStatus(
            entries: (0..<count).map {
                OutboxEntry(
                    sequence: Int64($0 + 1), localID: "n\($0)", method: .post, path: "notes", body: nil,
                    idempotencyKey: "k\($0)", state: .pending, createdAt: Date(timeIntervalSince1970: 0))
            })
    }

    @Test("signed out, the screen asks for a sign-in naming how many changes wait; nothing when none does")
    func signInSentence() {
        // Given
        let notice = SyncNotice(server: "the shop")
        // Then
        #expect(notice.signIn(Self.waiting(0)) == nil)
        #expect(notice.signIn(Self.waiting(1)) == "Sign in to send your change to the shop.")
        #expect(notice.signIn(Self.waiting(3)) == "Sign in to send your 3 changes to the shop.")
    }

    @Test("the list line counts what waits and what waits for the user, each once")
    func listLine() {
        // Then
        #expect(SyncNotice().list(Self.waiting(0)) == nil)
        #expect(SyncNotice().list(Self.waiting(2)) == "2 changes waiting to be sent.")
        #expect(SyncNotice().nothingWaits == "Nothing waits: the API has every change.")
    }
}
