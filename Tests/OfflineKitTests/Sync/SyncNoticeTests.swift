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

    static func entry(_ localID: String, _ state: OutboxEntry.State = .pending) -> OutboxEntry {
        OutboxEntry(
            sequence: 1, localID: localID, method: .put, path: "notes/\(localID)", body: nil,
            idempotencyKey: "k-\(localID)", state: state, createdAt: Date(timeIntervalSince1970: 0))
    }

    @Test("a sync's summary counts each kind of change, and says why it stopped and who sends the rest")
    func summarySentence() {
        // Given
        let notice = SyncNotice(server: "the shop")
        var report = OutboxSyncReport(
            sent: [Self.entry("a"), Self.entry("b")], waiting: 2, stoppedBecause: .noNetwork,
            stuck: [Self.entry("c", .stuck(lastError: "HTTP 500"))])
        report.sendingElsewhere = true

        // Then
        #expect(notice.summary(OutboxSyncReport()) == "Nothing to send.")
        #expect(
            notice.summary(report)
                == "Changes: 2 sent; 1 failed too often; 2 waiting. Stopped: "
                + ServiceRequestError.noNetwork.userMessage
                + " Another sync of this data is sending the rest.")
    }

    @Test("a sync's details give a line for each change created, refused, stuck, in conflict or merged")
    func detailLines() {
        // Given
        let notice = SyncNotice(server: "the shop")
        var report = OutboxSyncReport(
            sent: [Self.entry("kept"), Self.entry("new")],
            refused: [Self.entry("bad", .refused(reason: "HTTP 422: no title"))], newIDs: ["new": "41"],
            stuck: [Self.entry("tired", .stuck(lastError: "HTTP 500"))])
        report.conflicted = [Self.entry("both", .conflicted(theirs: nil, deletedOnServer: false))]
        report.merged = [Self.entry("mixed")]

        // Then: the change sent under its own identifier has none
        #expect(
            notice.details(report) == [
                "new is 41 at the shop now.",
                "bad: refused by the shop: HTTP 422: no title",
                "tired: failed by the shop too often: retry or discard it.",
                "both: changed in the shop meanwhile: keep yours or theirs.",
                "mixed: merged with the shop's changes to other fields.",
            ])
    }
}
