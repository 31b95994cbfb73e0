import Foundation  // String.contains(_:) before macOS 13 / iOS 16
import PromiseMVPTesting
import Promises
import Services
import XCTest

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

    func test_waitForValue_settlingWithinAShortTimeout_givesItsValue() {
        // Given: a promise that settles a moment after the wait begins, well within 5 s
        let later = after(seconds: 0.2).map(on: .inline) { 7 }

        // When
        let failures = capture {
            XCTAssertEqual(waitForValue(of: later, timeout: 5), 7)
        }

        // Then: waited for, not given up on
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

    func test_valueOf_rejected_failsWithTheErrorAndGivesNil() async {
        // When
        capturing = true
        let value = await value(of: Promise<Int>(error: ServiceRequestError.noData))
        capturing = false

        // Then
        XCTAssertNil(value)
        XCTAssertEqual(captured.count, 1)
        XCTAssertTrue(captured.first?.contains("rejected with noData") == true, "\(captured)")
    }

    func test_errorOf_fulfilled_failsWithTheValueAndGivesNil() async {
        // When
        capturing = true
        let error = await error(of: Promise.value("melody"))
        capturing = false

        // Then
        XCTAssertNil(error)
        XCTAssertEqual(captured.count, 1)
        XCTAssertTrue(captured.first?.contains("fulfilled with melody") == true, "\(captured)")
    }
}
