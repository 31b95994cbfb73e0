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

@MainActor
final class MelodyListPresenterTests: XCTestCase {
    let view = MelodyListViewControllerMock()
    let melodyService = MelodyServiceMock()
    var presenter: MelodyListPresenterImp!

    // Async, so that it runs on the main actor like the tests; XCTestCase's own does nothing.
    override func setUp() async throws {
        presenter = MelodyListPresenterImp(
            melodyService: melodyService,
            view: view)
        view.presenter = presenter
    }

    func test_getMelodies_success() async {
        // given
        let melodiesMock = Melody.mocks()
        melodyService.emulatedResult = .success

        // when
        let fetchMelodies = presenter.fetchMelodies()

        // then
        let melodies = await value(of: fetchMelodies)
        XCTAssertNotNil(view.shownMelodies)
        XCTAssert(view.shownMelodies == melodiesMock)
        XCTAssertEqual(melodies, melodiesMock)
        XCTAssertNil(view.shownError)
    }

    func test_getMelodies_fail() async {
        // given
        melodyService.emulatedResult = .error(.noNetwork)

        // when
        let fetchMelodies = presenter.fetchMelodies()

        // then
        let error = await error(of: fetchMelodies)
        XCTAssertNotNil(view.shownError)
        XCTAssertEqual(view.shownError, .noNetwork)
        XCTAssertEqual(error as? ServiceRequestError, .noNetwork)
        XCTAssertNil(view.shownMelodies)
    }
}

// MARK: - The screen, step by step (Swift Testing)
