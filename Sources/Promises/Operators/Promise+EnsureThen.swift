extension Promise {
    /// Runs `body` on `queue` however this promise settles, waits for the guarantee it returns,
    /// then passes this promise's outcome on: clean-up that takes time (closing a file, saying
    /// goodbye to a server) before the chain goes on.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - body: Starts the clean-up.
    /// - Returns: A promise that settles as this one did, once the clean-up finished.
    @inlinable
    public func ensureThen(
        on queue: some Dispatcher, _ body: @escaping @Sendable () -> Guarantee<Void>
    ) -> Promise<Value> {
        derive { next in
            { resolution in
                queue.dispatch {
                    body().promise.subscribe { _ in next.settle(resolution) }
                }
            }
        }
    }

    /// Runs `body` on the main actor however this promise settles, waits for the guarantee it
    /// returns, then passes this promise's outcome on.
    ///
    /// - Parameter body: Starts the clean-up.
    /// - Returns: A promise that settles as this one did, once the clean-up finished.
    @inlinable
    public func ensureThen(_ body: @escaping @MainActor () -> Guarantee<Void>) -> Promise<Value> {
        ensureThen(on: MainQueue.queue) { MainActor.assumeIsolated { body() } }
    }
}
