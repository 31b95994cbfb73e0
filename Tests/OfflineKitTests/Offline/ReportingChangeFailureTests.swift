import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// `Promise+ReportingChangeFailure.swift`: the one way a presenter tells its view a change failed.
@Suite("Reporting a failed change")
@MainActor
struct ReportingChangeFailureTests {
    struct Note: OfflineResource, Equatable {
        var id: String?
        var version: String?
        var title: String
    }

    /// What a view was told.
    final class Told {
        var conflicts: [OfflineConflict<Note>] = []
        var errors: [String] = []
    }

    @Test("a conflict is shown with both sides, any other failure in one sentence; the promise still fails")
    func conflictOrSentence() async {
        // Given
        let told = Told()
        let conflict = OfflineConflict<Note>(
            id: "n1", mine: Note(id: "n1", title: "Mine"), theirs: Note(id: "n1", title: "Theirs"),
            deletedThere: false, base: nil, fields: ["title"])
        let report = { (promise: Promise<Void>) in
            promise.reportingChangeFailure(
                of: Note.self, conflict: { told.conflicts.append($0) }, error: { told.errors.append($0) })
        }

        // When
        let conflicted = await PromiseExpectations.error(of: report(Promise(error: conflict)))
        let offline = await PromiseExpectations.error(
            of: report(Promise(error: ServiceRequestError.noNetwork)))
        let cancelled = await PromiseExpectations.error(
            of: report(Promise(error: ServiceRequestError.cancelled)))

        // Then
        #expect(told.conflicts.map(\.mine?.title) == ["Mine"])
        #expect(told.errors == [ServiceRequestError.noNetwork.userMessage])
        #expect(conflicted is OfflineConflict<Note> && offline != nil && cancelled != nil)
    }
}
