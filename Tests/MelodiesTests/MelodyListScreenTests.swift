import Foundation
import Melodies
import MelodiesTesting
import Testing
import XCTest

// The presenter's XCTest suite, written as an app's test target would write it: only the public
// products are imported, and the doubles are the ones `MelodiesTesting` ships. Each test waits for
// the presenter's promise, so it fails when the presenter is broken instead of asserting in a
// callback nobody waits for. The tests are `async` and on the main actor, like the presenter and
// the view: XCTest on Linux runs main-actor tests only when they are `async`.

// MARK: - Tests

@Suite("Melody list screen")
@MainActor
struct MelodyListScreenTests {
    let view = RecordingMelodyListView()
    let service = MelodyServiceMock()

    func makePresenter(_ service: any MelodyService) -> MelodyListPresenterImp {
        let presenter = MelodyListPresenterImp(melodyService: service, view: view, formatter: pinnedFormatter)
        view.presenter = presenter
        return presenter
    }

    @Test(
        "each service error is shown, with its message, and rejects the fetch with that error",
        arguments: [
            ServiceRequestError.unknownError, .noNetwork, .noData, .httpStatus(404), .httpStatus(503),
            .decodingFailed(type: "Melody", reason: "id: missing"), .timedOut, .storageFailed(reason: "disk"),
        ])
    func errorIsShown(_ error: ServiceRequestError) async {
        // Given
        service.emulatedResult = .error(error)
        let presenter = makePresenter(service)

        // When
        let rejected = await PromiseExpectations.error(of: presenter.fetchMelodies())

        // Then
        #expect(rejected as? ServiceRequestError == error)
        #expect(view.shownError == error)
        #expect(view.shownMessage == error.userMessage)
        #expect(view.shownMelodies == nil)
        #expect(view.calls == ["loading true", "error", "message", "loading false"])
    }

    @Test(
        "when the fetch's promise settles, the view already shows the rows, or the error, and loading ended")
    func viewUpdatedWhenPromiseSettles() async {
        // Given
        service.emulatedResult = .success
        let fetching = makePresenter(service)
        let failing = MelodyServiceMock()
        failing.emulatedResult = .error(.noNetwork)
        let failingView = RecordingMelodyListView()
        let failingPresenter = MelodyListPresenterImp(melodyService: failing, view: failingView)

        // When
        let shown = await PromiseExpectations.seenWhenSettled(fetching.fetchMelodies()) { [view] in view.calls
        }
        let failed = await PromiseExpectations.seenWhenSettled(failingPresenter.fetchMelodies()) {
            failingView.calls
        }

        // Then
        #expect(shown?.contains("rows") == true && shown?.last == "loading false", "\(shown ?? [])")
        #expect(failed?.contains("error") == true && failed?.last == "loading false", "\(failed ?? [])")
    }

    @Test("a cancelled fetch is not shown as an error")
    func cancellationIsNotShown() async {
        // Given
        service.emulatedResult = .error(.cancelled)
        let presenter = makePresenter(service)

        // When
        let rejected = await PromiseExpectations.error(of: presenter.fetchMelodies())

        // Then
        #expect(rejected as? ServiceRequestError == .cancelled)
        #expect(view.shownError == nil)
        #expect(view.calls == ["loading true", "loading false"])
    }

    @Test("a successful fetch shows loading, the melodies, the rows, no notice, then loading ended")
    func successCallbacksInOrder() async {
        // Given
        service.emulatedResult = .success
        let presenter = makePresenter(service)

        // When
        let melodies = await PromiseExpectations.value(of: presenter.fetchMelodies())

        // Then
        #expect(melodies == Melody.mocks())
        #expect(view.calls == ["loading true", "melodies", "rows", "notice", "loading false"])
        #expect(view.shownNotice == .some(nil))
    }

    @Test("rows carry text only, with durations as minutes and seconds")
    func rowsAreFormatted() async {
        // Given
        service.emulatedResult = .success
        let presenter = makePresenter(service)

        // When
        _ = await PromiseExpectations.value(of: presenter.fetchMelodies())

        // Then
        #expect(
            view.shownRows?.first
                == MelodyRow(
                    id: 1, title: "Clair de Lune", artist: "Claude Debussy", album: "Suite bergamasque",
                    duration: "5:02"))
        #expect(
            view.shownRows?.map(\.duration) == [
                "5:02", "3:07", "9:22", "5:37", "5:24", "4:04", "6:53", "5:30", "10:04", "6:07", "2:05",
                "26:00",
            ])
    }

    @Test(
        "cached melodies come with a notice saying why and how old they are",
        arguments: [
            (
                DataSource.cache(savedAt: Date(timeIntervalSince1970: 1_183_110_900), reason: .noNetwork),
                "Offline: showing melodies saved 5 minutes ago."
            ),
            (
                .cache(savedAt: Date(timeIntervalSince1970: 1_183_100_400), reason: .timedOut),
                "The server is not answering: showing melodies saved 3 hours ago."
            ),
            (
                .cache(savedAt: Date(timeIntervalSince1970: 1_183_111_170), reason: .httpStatus(503)),
                "The server is having trouble (error 503): showing melodies saved just now."
            ),
            (
                .cache(savedAt: Date(timeIntervalSince1970: 1_182_938_400), reason: .noNetwork),
                "Offline: showing melodies saved 2 days ago."
            ),
            (
                .cache(savedAt: Date(timeIntervalSince1970: 1_179_050_400), reason: .noNetwork),
                "Offline: showing melodies saved on 5/13/07, 10:00\u{202F}AM."
            ),  // ICU's narrow space
        ])
    func offlineNotice(source: DataSource, notice: String) async {
        // Given
        let service = SourcedMelodyServiceMock()
        service.source = source
        let presenter = makePresenter(service)

        // When
        _ = await PromiseExpectations.value(of: presenter.fetchMelodies())

        // Then
        #expect(view.shownNotice == .some(notice))
    }

    @Test("the presenter holds its view weakly: a closed screen and its presenter are freed")
    func noRetainCycle() {
        // Given
        weak var weakView: RecordingMelodyListView?
        weak var weakPresenter: MelodyListPresenterImp?
        do {
            let view = RecordingMelodyListView()
            let presenter = MelodyListPresenterImp(melodyService: service, view: view)
            view.presenter = presenter
            weakView = view
            weakPresenter = presenter
            #expect(presenter.view === view)
        }

        // Then
        #expect(weakView == nil)
        #expect(weakPresenter == nil)
    }
}
