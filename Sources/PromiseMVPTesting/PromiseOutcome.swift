import Promises

/// How a promise a test waited for ended.
enum PromiseOutcome<Value: Sendable>: Sendable {
    case fulfilled(Value)
    case rejected(any Error)
    case stillPending(seconds: Double)

    /// Waits up to `timeout` seconds for `promise`, without touching it.
    static func of(_ promise: Promise<Value>, timeout: Double) async -> PromiseOutcome {
        await promise.timeout(seconds: timeout)
            .map(on: .inline) { PromiseOutcome.fulfilled($0) }
            .recover(on: .inline) { error in
                if case PromiseError.timedOut = error {
                    return Guarantee.value(.stillPending(seconds: timeout))
                }
                return Guarantee.value(.rejected(error))
            }
            .value
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
