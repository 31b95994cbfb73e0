import Foundation  // String.contains(_:) before macOS 13 / iOS 16
import PromiseMVPTesting
import Promises
import Services
import XCTest

/// A test double as a user writes one: a service protocol's method answering `mock(result:model:)`.
final class SongServiceMock: ServiceRequestMock {
    var emulatedResult: ServiceRequestResult = .error(.unknownError)

    func getSongs() -> Promise<[String]> {
        mock(result: emulatedResult, model: ["Blue", "River"])
    }
}

final class ServiceRequestMockTests: XCTestCase {
    // MARK: - Subject under test

    let service = SongServiceMock()

    // MARK: - Tests

    func test_mock_success_fulfillsWithModel() {
        // Given
        service.emulatedResult = .success

        // When
        let songs = waitForValue(of: service.getSongs())

        // Then
        XCTAssertEqual(songs, ["Blue", "River"])
    }

    func test_mock_error_rejectsWithThatError() {
        // Given
        service.emulatedResult = .error(.noNetwork)

        // When
        let error = waitForError(of: service.getSongs())

        // Then
        XCTAssertEqual(error as? ServiceRequestError, .noNetwork)
    }

    func test_mock_defaultsToUnknownError() async {
        // When
        let error = await error(of: service.getSongs())

        // Then
        XCTAssertEqual(error as? ServiceRequestError, .unknownError)
    }
}
