/// The allocation behind a ``Promise``, shared by every copy of it: its lock, its
/// ``PromiseState``, and (for a ``StepPromise``) the step that settles it. It reports misuse when it
/// goes away.
///
/// Its state is reached through ``withPromiseState(_:)`` only (or ``Promise/update(_:immediate:)``,
/// which calls it): it keeps the header's flag equal to the state's
/// ``PromiseState/deinitHasWork``. The inherited `LockedBuffer` primitives (`acquireLock`,
/// `statePointer`) are for that gateway alone; `.ci/promise-gateway` fails the build when any other
/// file of the module names them.
///
/// Not final: ``StepPromise``, the promise an operator such as `map` makes, keeps its step in the
/// same allocation.
@usableFromInline
class PromiseStorage<Value: Sendable>: LockedBuffer<PromiseState<Value>> {
    /// Makes the storage of a promise in `state`, its header's flag set to match.
    @inlinable
    static func holding(_ state: consuming PromiseState<Value>) -> PromiseStorage<Value> {
        let flag = state.deinitHasWork  // read before the state is moved into the storage
        return make(consume state, deinitFlag: flag)
    }

    deinit {
        // A state `deinit` may skip destroying must hold nothing to release (see `settle`).
        assert(!stateTrivial.pointee || withStateAndFlag { state, _ in state.holdsNothingToRelease })
        // Generic code pays a type-metadata lookup for every look at the state, so the common case
        // (nothing to report, no one waiting) is decided from the header's flag, which `Promise.update` keeps equal
        // to `PromiseState.deinitHasWork`.
        // The rest is a function of its own, so that this common case saves no registers.
        guard deinitFlagUnlocked else { return }
        reportAndReleaseOnDeinit()
    }

    /// What `deinit` does when the header's flag says it has work: reports a misuse, and releases
    /// the handlers still waiting.
    @inline(never)
    final func reportAndReleaseOnDeinit() {
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
