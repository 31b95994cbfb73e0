extension Promise {
    /// Cancels the promise: rejects it with `CancellationError` if it is still pending, and stops the
    /// work it waits on where that work can be stopped.
    ///
    /// Work can be stopped when the promise came from an `async` closure (its task is cancelled),
    /// from a timer (`timeout`, `attempt`), or from a seal given a cancellation handler; a promise
    /// made by an operator passes the cancellation on to the promise it waits on, so cancelling the
    /// last promise of a chain cancels the whole chain. Other promises waiting on the same work see
    /// the cancellation too.
    ///
    /// `catch` skips a cancellation unless asked with `catch(policy: .allErrors)`, and a cancellation
    /// is never reported as an unhandled rejection.
    @inlinable
    public func cancel() {
        settle(.rejected(CancellationError(), handled: false), cancelling: true)
    }

    /// Whether the promise was settled by a cancellation.
    @inlinable
    public var isCancelled: Bool {
        update(
            {
                if case .rejected(let error, _) = $0.phase { return error.isCancellation }
                return false
            }, immediate: { _ in false })
    }

    /// Cancels the promise only when that stops some work, so that a promise others share is not
    /// rejected just because one of them stopped waiting.
    @inlinable
    func cancelIfCancellable() {
        let cancellable = update({ $0.isCancellable }, immediate: { _ in false })
        if cancellable { cancel() }
    }

    /// Replaces what runs when the promise is cancelled while pending.
    ///
    /// If the promise was already cancelled, `handler` runs at once; if it settled otherwise, the
    /// handler is dropped. The handler is released when the promise settles.
    @inlinable
    func setCancellationHandler(_ handler: (@Sendable () -> Void)?) {
        setCancellation(handler.map { .cancelAction(CancelAction($0)) })
    }

    /// Makes cancelling this promise cancel `upstream`, the promise it waits on, as
    /// `setCancellationHandler` would with a closure that cancels it, but without the closure.
    @inlinable
    func cancelsUpstream<Upstream>(_ upstream: Promise<Upstream>) {
        setCancellation(UpstreamPromise(upstream).map { .cancelUpstream($0) })
    }

    /// Replaces what cancelling does while the promise is pending; does it at once if the promise
    /// was already cancelled, unless `onlyWhilePending` (a combinator whose result an input already
    /// settled with a cancellation: that input was cancelled, not the result, so the other inputs
    /// must be left alone).
    @inlinable
    func setCancellation(_ cancellation: CancelOrLate<Value>?, onlyWhilePending: Bool = false) {
        let runNow = update(
            { state -> Bool in
                switch state.phase {
                case .pending:
                    state.cancelOrLate = cancellation
                    return false
                case .rejected(let error, _):
                    return error.isCancellation && !onlyWhilePending
                case .fulfilled:
                    return false
                }
            }, immediate: { _ in false })
        if runNow { cancellation?.cancel() }
    }

    /// Makes cancelling this combinator's result cancel `inputs`, if it is still pending: when an
    /// input already settled it (with a cancellation, say), there is nothing left to cancel.
    /// The inputs are held weakly, as ``cancelsUpstream(_:)`` holds its promise: they hold this
    /// result among their handlers.
    @inlinable
    func cancelsInputs(_ inputs: UpstreamPromises) {
        guard !inputs.isEmpty else { return }
        setCancellation(.cancelAction(CancelAction { inputs.cancel() }), onlyWhilePending: true)
    }
}
