import Foundation
import Melodies
import MelodiesTesting
import Testing

/// The melody list's test doubles, shared by the presenter's suites and the live service's tests.

/// A view that records every callback, in order.
final class RecordingMelodyListView: MelodyListView {
    var presenter: MelodyListPresenterImp?
    var calls: [String] = []
    var shownMelodies: [Melody]?
    var shownError: ServiceRequestError?
    var shownRows: [MelodyRow]?
    var shownNotice: String??
    var shownNotices: [String?] = []
    var shownRowCounts: [Int] = []
    var shownMessage: String?

    func showMelodies(melodies: [Melody]) {
        calls.append("melodies")
        shownMelodies = melodies
    }

    func showLoadError(error: ServiceRequestError) {
        calls.append("error")
        shownError = error
    }

    func showLoading(_ isLoading: Bool) {
        calls.append("loading \(isLoading)")
    }

    func showMelodyRows(_ rows: [MelodyRow]) {
        calls.append("rows")
        shownRows = rows
        shownRowCounts.append(rows.count)
    }

    func showSourceNotice(_ notice: String?) {
        calls.append("notice")
        shownNotice = notice
        shownNotices.append(notice)
    }

    func showErrorMessage(_ message: String) {
        calls.append("message")
        shownMessage = message
    }
}

/// A service that answers with a given source, as the live one does offline.
final class SourcedMelodyServiceMock: MelodyService, ServiceRequestMock {
    var source: DataSource = .network

    func getMelodies() -> Promise<[Melody]> {
        mock(result: .success, model: Melody.mocks())
    }

    func getMelodiesWithSource() -> Promise<Fetched<[Melody]>> {
        .value(Fetched(value: Melody.mocks(), source: source))
    }
}

/// A formatter pinned to en_US, UTC and a fixed clock, so that texts are the same everywhere.
let pinnedFormatter = MelodyListFormatter(
    locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC") ?? .current,
    now: { Date(timeIntervalSince1970: 1_183_111_200) })  // 2007-06-29 10:00 UTC
