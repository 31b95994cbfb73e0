import Promises

/// How a promise a test waited for ended.
enum PromiseOutcome<Value: Sendable>: Sendable {
    case fulfilled(Value)
    case rejected(any Error)
    case stillPending(seconds: Double)

    /// Waits up to `timeout` seconds for `promise`, without touching it.
    static func of(_ promise: Promise<Value>, timeout: Double) async -> PromiseOutcome {
        (try? await settling(promise, timeout: timeout).value) ?? .stillPending(seconds: timeout)
    }

    /// A promise of how `promise` ends, or of `stillPending` once `timeout` seconds passed; it is
    /// never rejected.
    ///
    /// Not `promise.timeout(seconds:)`: that would cancel the promise, and its `timedOut` could not be
    /// told from a `timedOut` the promise itself was rejected with.
    static func settling(_ promise: Promise<Value>, timeout: Double) -> Promise<PromiseOutcome> {
        let settled = promise.map(on: .inline) { PromiseOutcome.fulfilled($0) }
            .recover(on: .inline) { error in Guarantee.value(.rejected(error)) }
        let deadline = after(seconds: timeout).map(on: .inline) {
            PromiseOutcome.stillPending(seconds: timeout)
        }
        return race(settled.asPromise(), deadline.asPromise())
    }

    var failureWhenValueExpected: String? {
        switch self {
        case .fulfilled: nil
        case .rejected(let error): "expected the promise to be fulfilled, but it was rejected with \(error)"
        case .stillPending(let seconds):
            "expected the promise to be fulfilled, but it was still pending after \(seconds) s"
        }
    }

    var failureWhenErrorExpected: String? {
        switch self {
        case .fulfilled(let value): "expected the promise to be rejected, but it was fulfilled with \(value)"
        case .rejected: nil
        case .stillPending(let seconds):
            "expected the promise to be rejected, but it was still pending after \(seconds) s"
        }
    }

    var value: Value? {
        if case .fulfilled(let value) = self { return value }
        return nil
    }

    var error: (any Error)? {
        if case .rejected(let error) = self { return error }
        return nil
    }
}
