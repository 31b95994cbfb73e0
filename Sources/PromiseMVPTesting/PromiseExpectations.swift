public import Promises
public import Testing

/// Waiting for a promise inside a Swift Testing test, failing the test clearly when it does not
/// end as expected.
///
/// ```swift
/// @Test func showsMelodies() async {
///     let melodies = await PromiseExpectations.value(of: presenter.fetchMelodies())
///     #expect(view.shownMelodies == melodies)
/// }
/// ```
public enum PromiseExpectations {
    /// Waits for `promise` and returns its value; records an issue at the caller and returns `nil`
    /// when it is rejected or still pending after `timeout` seconds.
    ///
    /// - Parameters:
    ///   - promise: The promise under test.
    ///   - timeout: How long to wait, in seconds.
    ///   - sourceLocation: Where the failure is reported; the caller's line by default.
    /// - Returns: The value, or `nil` after recording the failure.
    public static func value<Value>(
        of promise: Promise<Value>,
        timeout: Double = 60,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Value? {
        let outcome = await PromiseOutcome.of(promise, timeout: timeout)
        if let failure = outcome.failureWhenValueExpected {
            Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
        }
        return outcome.value
    }

    /// Waits for `guarantee` and returns its value; records an issue at the caller and returns
    /// `nil` when it is still pending after `timeout` seconds. (A guarantee goes wherever a
    /// promise goes.)
    ///
    /// - Parameters:
    ///   - guarantee: The guarantee under test.
    ///   - timeout: How long to wait, in seconds.
    ///   - sourceLocation: Where the failure is reported; the caller's line by default.
    /// - Returns: The value, or `nil` after recording the failure.
    public static func value<Value>(
        of guarantee: Guarantee<Value>,
        timeout: Double = 60,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Value? {
        await value(of: guarantee.asPromise(), timeout: timeout, sourceLocation: sourceLocation)
    }

    /// Waits for `promise` and returns its error; records an issue at the caller and returns `nil`
    /// when it is fulfilled or still pending after `timeout` seconds.
    ///
    /// - Parameters:
    ///   - promise: The promise under test.
    ///   - timeout: How long to wait, in seconds.
    ///   - sourceLocation: Where the failure is reported; the caller's line by default.
    /// - Returns: The error, or `nil` after recording the failure.
    public static func error<Value>(
        of promise: Promise<Value>,
        timeout: Double = 60,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> (any Error)? {
        let outcome = await PromiseOutcome.of(promise, timeout: timeout)
        if let failure = outcome.failureWhenErrorExpected {
            Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
        }
        return outcome.error
    }
}
