/// A mistake in how a promise was used that would otherwise go unnoticed.
public enum PromiseDiagnostic: Sendable {
    /// A promise was rejected and dropped without any handler seeing the error, or its error reached
    /// `finally` without a `catch` before it. Cancellations are never reported.
    case unhandledRejection(any Error, promiseType: String)
    /// A promise was deallocated while pending: whoever held its seal dropped it without settling it,
    /// so its handlers will never run.
    case deallocatedWhilePending(promiseType: String)
}

extension PromiseDiagnostic: CustomStringConvertible {
    /// One line saying what happened.
    public var description: String {
        switch self {
        case .unhandledRejection(let error, let type):
            "\(type) was rejected and nothing handled the error: \(String(reflecting: error))"
        case .deallocatedWhilePending(let type):
            "\(type) was deallocated while pending: its seal was dropped without settling it"
        }
    }
}
