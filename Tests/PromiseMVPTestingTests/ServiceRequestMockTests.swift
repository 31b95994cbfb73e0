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

/// The XCTest helpers fail the test at the caller when the promise does not end as expected.
final class XCTestHelpersTests: XCTestCase {
    // MARK: - Test doubles

    /// Failures recorded while `capturing` is set, instead of failing this test.
    private var captured: [String] = []
    private var capturing = false

    // The seam for capturing failures: Apple's XCTest records an `XCTIssue` (and deprecates
    // `recordFailure`); swift-corelibs-xctest on Linux has only `recordFailure`.
    #if canImport(Darwin)
        override func record(_ issue: XCTIssue) {
            if capturing {
                captured.append(issue.compactDescription)
            } else {
                super.record(issue)
            }
        }
    #else
        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
            expected: Bool
        ) {
            if capturing {
                captured.append(description)
            } else {
                super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
        }
    #endif

    private func capture(_ body: () -> Void) -> [String] {
        capturing = true
        defer { capturing = false }
        body()
        return captured
    }

    // MARK: - Tests

    func test_waitForValue_rejected_failsWithTheError() {
        // When
        let failures = capture {
            XCTAssertNil(waitForValue(of: Promise<Int>(error: ServiceRequestError.noData)))
        }

        // Then
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.contains("rejected with noData") == true, "\(failures)")
    }

    func test_waitForValue_pending_failsAfterTimeout() {
        // Given
        let (promise, seal) = Promise<Int>.pending()

        // When
        let failures = capture {
            XCTAssertNil(waitForValue(of: promise, timeout: 0.05))
        }

        // Then
        XCTAssertTrue(failures.contains { $0.contains("still pending after 0.05 s") }, "\(failures)")
        seal.fulfill(0)
    }

    func test_waitForValue_guarantee_givesItsValue() {
        // Given
        let (guarantee, resolve) = Guarantee<Int>.pending()
        DispatchQueue.global().async { resolve(4) }

        // When
        let failures = capture {
            XCTAssertEqual(waitForValue(of: guarantee), 4)
        }

        // Then
        XCTAssertEqual(failures, [])
    }

    func test_waitForError_fulfilled_failsWithTheValue() {
        // When
        let failures = capture {
            XCTAssertNil(waitForError(of: Promise.value("melody")))
        }

        // Then
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.contains("fulfilled with melody") == true, "\(failures)")
    }
}
