/// Everything about a promise that changes, guarded by the promise's mutex.
@usableFromInline
struct PromiseState<Value: Sendable>: Sendable {
    @usableFromInline
    enum Phase: Sendable {
        case pending(Handlers<Value>)
        case fulfilled(Value)
        case rejected(any Error, handled: Bool)
    }

    // The order of the fields keeps the state small (the flags fill the phase's tail padding):
    // see ``LockedBuffer`` for why size matters.
    @usableFromInline
    var phase: Phase
    /// Set once any handler was registered: a rejection somebody saw is not reported as unhandled.
    @usableFromInline
    var observed = false
    /// What a drop while pending is reported as: nothing for promises made by operators (when one
    /// is dropped while pending, the promise it waited on was dropped too and reports it, once),
    /// else the kind of value the user made, so that the report names it.
    @usableFromInline
    var abandonment: Abandonment
    /// While pending, what cancelling the promise does (its presence makes the promise
    /// cancellable); while the settling thread runs the handlers (the storage header's `drain`),
    /// the handlers registered meanwhile.
    @usableFromInline
    var cancelOrLate: CancelOrLate<Value>?

    @inlinable
    init(phase: Phase = .pending(.none), abandonment: Abandonment = .promise) {
        self.phase = phase
        self.abandonment = abandonment
    }

    /// Whether dropping the promise while pending is reported, and as what.
    @usableFromInline
    enum Abandonment: UInt8, Sendable {
        /// Made by an operator: the promise it waits on reports the drop.
        case silent
        /// Made by the user as a promise (`Promise { seal in }`, `pending()`).
        case promise
        /// Made by the user as a guarantee (`Guarantee { resolve in }`, `pending()`).
        case guarantee
    }

    /// How many handlers wait on the promise while it is pending; 0 once settled.
    var handlerCount: Int {
        guard case .pending(let handlers) = phase else { return 0 }
        return handlers.count
    }

    @inlinable
    var resolution: Resolution<Value>? {
        switch phase {
        case .pending: nil
        case .fulfilled(let value): .fulfilled(value)
        case .rejected(let error, let handled): .rejected(error, handled: handled)
        }
    }

    /// Whether `deinit` would have something to do if the promise went away now: a misuse to
    /// report, or waiting handlers to release (which it releases one level at a time, see
    /// ``Trampoline``). The header flag of its storage mirrors it so that `deinit` can skip the
    /// state in the common case.
    @inlinable
    var deinitHasWork: Bool {
        switch phase {
        case .pending(.none): abandonment != .silent
        case .pending: true
        case .fulfilled: false
        case .rejected(_, let handled): !handled && !observed
        }
    }

    /// What to report if the promise goes away in this state.
    var reportOnDeinit: PromiseDiagnostic? {
        let promiseType = abandonment == .guarantee ? "\(Guarantee<Value>.self)" : "\(Promise<Value>.self)"
        switch phase {
        case .pending where abandonment != .silent:
            return .deallocatedWhilePending(promiseType: promiseType)
        case .rejected(let error, let handled) where !handled && !observed && !error.isCancellation:
            return .unhandledRejection(error, promiseType: promiseType)
        case .pending, .fulfilled, .rejected:
            return nil
        }
    }

    /// Whether destroying the state would release nothing: fulfilled with a trivial value, and
    /// nothing waiting to be cancelled or run. Only then may the storage's `deinit` skip destroying it.
    var holdsNothingToRelease: Bool {
        guard case .fulfilled = phase, _isPOD(Value.self), cancelOrLate == nil else { return false }
        return true
    }

    /// Takes the handlers waiting on a pending promise out of the state, leaving none.
    mutating func takeWaitingHandlers() -> Handlers<Value> {
        guard case .pending = phase else { return .none }
        var taken = Phase.pending(.none)
        swap(&taken, &phase)
        guard case .pending(let handlers) = taken else { return .none }
        return handlers
    }

    /// Whether cancelling the promise stops some work.
    @inlinable
    var isCancellable: Bool {
        cancelOrLate?.cancels ?? false
    }

    @inlinable
    var isPending: Bool {
        if case .pending = phase { return true }
        return false
    }
}

extension PromiseState.Phase {
    @inlinable
    init(_ resolution: Resolution<Value>) {
        switch resolution {
        case .fulfilled(let value): self = .fulfilled(value)
        case .rejected(let error, let handled): self = .rejected(error, handled: handled)
        }
    }
}
