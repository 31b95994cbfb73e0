extension Promise {
    /// Looks at the outcome, value or error, and passes it on unchanged: for logging and debugging.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - body: Sees the result.
    /// - Returns: A promise that settles like this one once `body` ran.
    @inlinable
    public func tap(
        on queue: some Dispatcher,
        _ body: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) -> Promise<Value> {
        derive { next in
            { resolution in
                queue.dispatch {
                    body(resolution.result)
                    next.settle(resolution)
                }
            }
        }
    }

    /// Looks at the outcome, value or error, on the main actor and passes it on unchanged.
    ///
    /// - Parameter body: Sees the result.
    /// - Returns: A promise that settles like this one once `body` ran.
    @inlinable
    public func tap(
        _ body: @escaping @MainActor (Result<Value, any Error>) -> Void
    ) -> Promise<Value> {
        tap(on: MainQueue.queue, MainQueue.adapt(body))
    }
}
