public import Foundation

extension PromiseError: CustomStringConvertible, CustomDebugStringConvertible, LocalizedError {
    /// What went wrong, in a sentence a log line or an alert can show.
    public var description: String {
        switch self {
        case .timedOut:
            "The promise did not settle before its timeout."
        case .compactMapReturnedNil:
            "compactMap's transform returned nil, so there is no value to pass on."
        case .emptyRace:
            "race was given no promises, so nothing can win."
        case .returnedSelf:
            "A handler returned the promise its own step makes, which would wait on itself forever."
        case .emptySequence:
            "The sequence was empty, so it has no first or last value."
        case .invalidCallingConvention:
            "A callback gave neither a value nor an error."
        case .invalidConcurrency:
            "when(fulfilled:concurrently:) needs to run at least one promise at a time."
        }
    }

    /// The case's name and its sentence: `PromiseError.timedOut: The promise did not settle ...`.
    public var debugDescription: String {
        "PromiseError.\(caseName): \(description)"
    }

    /// The same sentence, for `localizedDescription`.
    public var errorDescription: String? {
        description
    }

    private var caseName: String {
        switch self {
        case .timedOut: "timedOut"
        case .compactMapReturnedNil: "compactMapReturnedNil"
        case .emptyRace: "emptyRace"
        case .returnedSelf: "returnedSelf"
        case .emptySequence: "emptySequence"
        case .invalidCallingConvention: "invalidCallingConvention"
        case .invalidConcurrency: "invalidConcurrency"
        }
    }
}
