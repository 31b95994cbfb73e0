import MelodiesTesting
import XCTest

@MainActor
final class MelodyScreenTests: XCTestCase {
    let view = MelodyListViewControllerMock()
    let melodyService = MelodyServiceMock()  // MelodyService, ServiceRequestMock
    var presenter: MelodyListPresenterImp!

    override func setUp() async throws {
        presenter = MelodyListPresenterImp(melodyService: melodyService, view: view)
        view.presenter = presenter
    }

    func test_getMelodies_fail() async {
        melodyService.emulatedResult = .error(.noNetwork)  // given
        let fetchMelodies = presenter.fetchMelodies()  // when
        let error = await error(of: fetchMelodies)  // then: waits, fails if fulfilled
        XCTAssertEqual(view.shownError, .noNetwork)
        XCTAssertEqual(error as? ServiceRequestError, .noNetwork)
    }
}
