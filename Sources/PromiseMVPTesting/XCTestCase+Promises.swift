public import Promises
public import XCTest

extension XCTestCase {
    /// Waits for `promise` and returns its value; fails the test at the caller and returns `nil`
    /// when it is rejected or still pending after `timeout` seconds.
    ///
    /// Main-actor handlers keep running while this waits on the main thread: XCTest's wait runs the
    /// main run loop.
    ///
    /// - Parameters:
    ///   - promise: The promise under test.
    ///   - timeout: How long to wait, in seconds.
    ///   - file: Where the failure is reported; the caller's file by default.
    ///   - line: Where the failure is reported; the caller's line by default.
    /// - Returns: The value, or `nil` after failing the test.
    public func waitForValue<Value>(
        of promise: Promise<Value>,
        timeout: Double = 60,
        file: StaticString = #filePath,
        line: UInt = #line
    ) -> Value? {
        let outcome = wait(for: promise, timeout: timeout)
        if let failure = outcome.failureWhenValueExpected {
            XCTFail(failure, file: file, line: line)
        }
        return outcome.value
    }

    /// Waits for `guarantee` and returns its value; fails the test at the caller and returns `nil`
    /// when it is still pending after `timeout` seconds.
    ///
    /// - Parameters:
    ///   - guarantee: The guarantee under test.
    ///   - timeout: How long to wait, in seconds.
    ///   - file: Where the failure is reported; the caller's file by default.
    ///   - line: Where the failure is reported; the caller's line by default.
    /// - Returns: The value, or `nil` after failing the test.
    public func waitForValue<Value>(
        of guarantee: Guarantee<Value>,
        timeout: Double = 60,
        file: StaticString = #filePath,
        line: UInt = #line
    ) -> Value? {
        waitForValue(of: guarantee.asPromise(), timeout: timeout, file: file, line: line)
    }

    /// Waits for `promise` and returns its error; fails the test at the caller and returns `nil`
    /// when it is fulfilled or still pending after `timeout` seconds.
    ///
    /// - Parameters:
    ///   - promise: The promise under test.
    ///   - timeout: How long to wait, in seconds.
    ///   - file: Where the failure is reported; the caller's file by default.
    ///   - line: Where the failure is reported; the caller's line by default.
    /// - Returns: The error, or `nil` after failing the test.
    public func waitForError<Value>(
        of promise: Promise<Value>,
        timeout: Double = 60,
        file: StaticString = #filePath,
        line: UInt = #line
    ) -> (any Error)? {
        let outcome = wait(for: promise, timeout: timeout)
        if let failure = outcome.failureWhenErrorExpected {
            XCTFail(failure, file: file, line: line)
        }
        return outcome.error
    }

    /// Waits for `promise` and returns its value, from an `async` test; fails the test at the caller
    /// and returns `nil` when it is rejected or still pending after `timeout` seconds.
    ///
    /// It runs on the caller's actor, so a main-actor test calls it without sending itself away.
    ///
    /// - Parameters:
    ///   - promise: The promise under test.
    ///   - timeout: How long to wait, in seconds.
    ///   - file: Where the failure is reported; the caller's file by default.
    ///   - line: Where the failure is reported; the caller's line by default.
    /// - Returns: The value, or `nil` after failing the test.
    nonisolated(nonsending) public func value<Value>(
        of promise: Promise<Value>,
        timeout: Double = 60,
        file: StaticString = #filePath,
        line: UInt = #line
    ) async -> Value? {
        let outcome = await PromiseOutcome.of(promise, timeout: timeout)
        if let failure = outcome.failureWhenValueExpected {
            XCTFail(failure, file: file, line: line)
        }
        return outcome.value
    }

    /// Waits for `guarantee` and returns its value, from an `async` test; fails the test at the
    /// caller and returns `nil` when it is still pending after `timeout` seconds.
    ///
    /// - Parameters:
    ///   - guarantee: The guarantee under test.
    ///   - timeout: How long to wait, in seconds.
    ///   - file: Where the failure is reported; the caller's file by default.
    ///   - line: Where the failure is reported; the caller's line by default.
    /// - Returns: The value, or `nil` after failing the test.
    nonisolated(nonsending) public func value<Value>(
        of guarantee: Guarantee<Value>,
        timeout: Double = 60,
        file: StaticString = #filePath,
        line: UInt = #line
    ) async -> Value? {
        await value(of: guarantee.asPromise(), timeout: timeout, file: file, line: line)
    }

    /// Waits for `promise` and returns its error, from an `async` test; fails the test at the caller
    /// and returns `nil` when it is fulfilled or still pending after `timeout` seconds.
    ///
    /// - Parameters:
    ///   - promise: The promise under test.
    ///   - timeout: How long to wait, in seconds.
    ///   - file: Where the failure is reported; the caller's file by default.
    ///   - line: Where the failure is reported; the caller's line by default.
    /// - Returns: The error, or `nil` after failing the test.
    nonisolated(nonsending) public func error<Value>(
        of promise: Promise<Value>,
        timeout: Double = 60,
        file: StaticString = #filePath,
        line: UInt = #line
    ) async -> (any Error)? {
        let outcome = await PromiseOutcome.of(promise, timeout: timeout)
        if let failure = outcome.failureWhenErrorExpected {
            XCTFail(failure, file: file, line: line)
        }
        return outcome.error
    }

    private func wait<Value>(for promise: Promise<Value>, timeout: Double) -> PromiseOutcome<Value> {
        let ended = expectation(description: "promise settles or its timeout passes")
        let outcome = PromiseOutcome.settling(promise, timeout: timeout)
        // Told once `outcome` holds its result: the promise `tap` returns would settle only after
        // this handler, on the thread that settled `promise`, and could still be pending when the
        // wait below returns.
        _ = outcome.tap(on: .inline) { _ in ended.fulfill() }
        // `outcome` always ends by `timeout`; XCTest's own limit is only a backstop.
        wait(for: [ended], timeout: timeout + 10)
        return (try? outcome.result?.get()) ?? .stillPending(seconds: timeout)
    }
}
