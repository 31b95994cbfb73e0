/// The allocation behind a ``Promise``; it reports misuse when it goes away.
///
/// Not final: ``StepPromise``, the promise an operator such as `map` makes, keeps its step in the
/// same allocation.
@usableFromInline
class PromiseStorage<Value: Sendable>: LockedBuffer<PromiseState<Value>> {
    deinit {
        // A state `deinit` may skip destroying must hold nothing to release (see `settle`).
        assert(!stateTrivial.pointee || withLock { state, _ in state.holdsNothingToRelease })
        // Generic code pays a type-metadata lookup for every look at the state, so the common case
        // (nothing to report, no one waiting) is decided from the header's flag, which `Promise.update` keeps equal
        // to `PromiseState.deinitHasWork`.
        guard deinitFlagUnlocked else { return }
        let (report, waiting) = withPromiseState { state in
            (state.reportOnDeinit, state.takeWaitingHandlers())
        }
        if let report {
            PromiseDiagnostics.report(report)
        }
        // Released one level deeper, as the promises waiting on this one go with them.
        if !waiting.isEmpty {
            Trampoline.release(consume waiting)
        }
    }
}
