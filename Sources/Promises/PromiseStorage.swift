/// The allocation behind a ``Promise``; it reports misuse when it goes away.
final class PromiseStorage<Value: Sendable>: LockedBuffer<PromiseState<Value>> {
    deinit {
        let (phase, observed, reportsAbandonment) = withLock {
            ($0.phase, $0.observed, $0.reportsAbandonment)
        }
        let promiseType = "\(Promise<Value>.self)"
        switch phase {
        case .pending:
            if reportsAbandonment {
                PromiseDiagnostics.report(.deallocatedWhilePending(promiseType: promiseType))
            }
        case .rejected(let error, let handled):
            if !observed && !handled && !error.isCancellation {
                PromiseDiagnostics.report(.unhandledRejection(error, promiseType: promiseType))
            }
        case .fulfilled:
            break
        }
    }
}
