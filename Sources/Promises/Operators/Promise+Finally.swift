extension Promise {
    /// Ends a chain: runs `body` however the promise settles.
    ///
    /// The guarantee it returns cannot carry an error, so an error that reaches `finally` without a
    /// `catch` before it is reported through ``PromiseDiagnostics`` (cancellations excepted).
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - body: The last step.
    /// - Returns: A guarantee fulfilled once `body` ran, for a caller or a test to wait on.
    @discardableResult
    @inlinable
    public func finally(
        on queue: some Dispatcher,
        _ body: @escaping @Sendable () -> Void
    ) -> Guarantee<Void> {
        Guarantee(
            derive(linkingCancellation: false) { next in
                { resolution in
                    if case .rejected(let error, handled: false) = resolution, !error.isCancellation {
                        PromiseDiagnostics.report(.unhandledRejection(error, promiseType: "\(Self.self)"))
                    }
                    queue.dispatch {
                        body()
                        next.settle(.fulfilled(()))
                    }
                }
            }
        )
    }

    /// Ends a chain: runs `body` on the main actor however the promise settles.
    ///
    /// An error that reaches `finally` without a `catch` before it is reported through
    /// ``PromiseDiagnostics`` (cancellations excepted).
    ///
    /// - Parameter body: The last step.
    /// - Returns: A guarantee fulfilled once `body` ran, for a caller or a test to wait on.
    @discardableResult
    @inlinable
    public func finally(_ body: @escaping @MainActor () -> Void) -> Guarantee<Void> {
        finally(on: MainQueue.queue, MainQueue.adapt(body))
    }
}
