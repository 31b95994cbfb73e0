import Melodies
import PromiseMVPTesting
import XCTest

// The seed's tests, ported to Swift 6. Only the public products are imported, as in a user's test
// target. The one change from the seed: the tests wait for the promise, so each fails when the
// presenter is broken instead of asserting in a callback nobody waits for. They are `async` and on
// the main actor, like the presenter and the view: XCTest on Linux runs main-actor tests only when
// they are `async`.

// MARK: - Test doubles

final class MelodyServiceMock: MelodyService, ServiceRequestMock {
    var emulatedResult: ServiceRequestResult = .error(.unknownError)

    func getMelodies() -> Promise<[Melody]> {
        let melodies = Melody.mocks()
        return mock(result: emulatedResult, model: melodies)
    }
}

final class MelodyListViewControllerMock: MelodyListViewController {
    var presenter: MelodyListPresenterImp?
    var shownMelodies: [Melody]?
    var shownError: ServiceRequestError?

    func showMelodies(melodies: [Melody]) {
        shownMelodies = melodies
    }

    func showLoadError(error: ServiceRequestError) {
        shownError = error
    }
}

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
