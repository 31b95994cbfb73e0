extension Promise {
    /// Runs `body` however the promise settles (hide a spinner, close a file) and passes the
    /// outcome on unchanged.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - body: The clean-up.
    /// - Returns: A promise that settles like this one once `body` ran.
    @inlinable
    public func ensure(
        on queue: some Dispatcher,
        _ body: @escaping @Sendable () -> Void
    ) -> Promise<Value> {
        derive { next in
            { resolution in
                queue.dispatch {
                    body()
                    next.settle(resolution)
                }
            }
        }
    }

    /// Runs `body` on the main actor however the promise settles and passes the outcome on
    /// unchanged.
    ///
    /// - Parameter body: The clean-up.
    /// - Returns: A promise that settles like this one once `body` ran.
    @inlinable
    public func ensure(_ body: @escaping @MainActor () -> Void) -> Promise<Value> {
        ensure(on: MainQueue.queue, MainQueue.adapt(body))
    }
}
