/// Resumes a continuation exactly once, whether the promise settles or the awaiting task is
/// cancelled first, and whichever of the two reaches it before the continuation exists.
struct ContinuationBox<Value: Sendable>: Sendable {
    private enum State {
        case waiting
        case suspended(CheckedContinuation<Value, any Error>)
        case resumedEarly(Result<Value, any Error>)
        case done
    }

    private let state = Locked(State.waiting)

    func suspend(_ continuation: CheckedContinuation<Value, any Error>) {
        let early = state.withLock { state -> Result<Value, any Error>? in
            guard case .resumedEarly(let result) = state else {
                state = .suspended(continuation)
                return nil
            }
            state = .done
            return result
        }
        if let early { continuation.resume(with: early) }
    }

    func resume(with result: Result<Value, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            switch state {
            case .waiting:
                state = .resumedEarly(result)
                return nil
            case .suspended(let continuation):
                state = .done
                return continuation
            case .resumedEarly, .done:
                return nil
            }
        }
        continuation?.resume(with: result)
    }
}
