extension Promise {
    /// Handles an error: shows it, logs it.
    ///
    /// Unlike PromiseKit's `catch`, this one does not end the chain: the promise it returns settles
    /// like this one, after `body` ran, so a presenter can hand it to a test that awaits it. A
    /// rejection that went through `catch` counts as handled and is not reported. A cancellation
    /// skips `body` unless `policy` is ``CatchPolicy/allErrors``.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - policy: Which errors `body` sees.
    ///   - body: Handles the error.
    /// - Returns: A promise that settles like this one once `body` ran.
    @discardableResult
    @inlinable
    public func `catch`(
        on queue: some Dispatcher,
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @Sendable (any Error) -> Void
    ) -> Promise<Value> {
        derive { next in
            { resolution in
                switch resolution {
                case .fulfilled:
                    next.settle(resolution)
                case .rejected(let error, _) where policy.admits(error):
                    queue.dispatch {
                        body(error)
                        next.settle(.rejected(error, handled: true))
                    }
                case .rejected(let error, _):
                    next.settle(.rejected(error, handled: true))
                }
            }
        }
    }

    /// Handles an error on the main actor: shows it, logs it.
    ///
    /// Unlike PromiseKit's `catch`, this one does not end the chain: the promise it returns settles
    /// like this one, after `body` ran. A rejection that went through `catch` counts as handled. A
    /// cancellation skips `body` unless `policy` is ``CatchPolicy/allErrors``.
    ///
    /// - Parameters:
    ///   - policy: Which errors `body` sees.
    ///   - body: Handles the error.
    /// - Returns: A promise that settles like this one once `body` ran.
    @discardableResult
    @inlinable
    public func `catch`(
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @MainActor (any Error) -> Void
    ) -> Promise<Value> {
        `catch`(on: MainQueue.queue, policy: policy, MainQueue.adapt(body))
    }
}
