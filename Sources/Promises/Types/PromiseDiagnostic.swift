/// A mistake in how a promise was used that would otherwise go unnoticed.
///
/// More cases may be added in a later version: a `switch` over it needs a `default`.
public enum PromiseDiagnostic: Sendable {
    /// A promise was rejected and dropped without any handler seeing the error, or its error reached
    /// `finally` without a `catch` before it. Cancellations are never reported.
    case unhandledRejection(any Error, promiseType: String)
    /// A promise or guarantee was deallocated while pending: whoever held its seal (or a
    /// guarantee's resolve function) dropped it without settling it, so its handlers will never
    /// run. `promiseType` names which it was, `Promise<Int>` or `Guarantee<Int>`.
    case deallocatedWhilePending(promiseType: String)
    /// An error reached `cauterize()`, which ends a chain whose errors nobody shows: reported so
    /// that it is at least logged.
    case cauterized(any Error)
}

extension PromiseDiagnostic: CustomStringConvertible {
    /// One line saying what happened.
    public var description: String {
        switch self {
        case .unhandledRejection(let error, let type):
            "\(type) was rejected and nothing handled the error: \(String(reflecting: error))"
        case .deallocatedWhilePending(let type):
            "\(type) was deallocated while pending: "
                + (type.hasPrefix("Guarantee") ? "its resolve function" : "its seal")
                + " was dropped without settling it"
        case .cauterized(let error):
            "an error ended at cauterize(): \(String(reflecting: error))"
        }
    }
}
