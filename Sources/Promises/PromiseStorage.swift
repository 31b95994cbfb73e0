/// The allocation behind a ``Promise``; it reports misuse when it goes away.
///
/// Not final: ``StepPromise``, the promise an operator such as `map` makes, keeps its step in the
/// same allocation.
@usableFromInline
class PromiseStorage<Value: Sendable>: LockedBuffer<PromiseState<Value>> {
    deinit {
        // Generic code pays a type-metadata lookup for every look at the state, so the common case
        // (nothing to report) is decided from the header's flag, which `Promise.update` keeps equal
        // to `PromiseState.mayReport`.
        guard flagInDeinit else { return }
        let report = withLock { state, _ in state.reportOnDeinit }
        if let report {
            PromiseDiagnostics.report(report)
        }
    }
}
