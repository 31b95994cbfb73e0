extension Promise {
    /// Starts the next asynchronous step with the value, and settles like the promise it returns.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - body: Starts the next step; throwing rejects the returned promise.
    /// - Returns: A promise that settles like `body`'s, or rejected like this one.
    @inlinable
    public consuming func then<NewValue>(
        on queue: some Dispatcher,
        _ body: @escaping @Sendable (Value) throws -> Promise<NewValue>
    ) -> Promise<NewValue> {
        follow(with: ThenStep(on: type(of: queue), body), on: queue)
    }

    /// Starts the next asynchronous step with the value on the main actor, and settles like the
    /// promise it returns.
    ///
    /// - Parameter body: Starts the next step; throwing rejects the returned promise.
    /// - Returns: A promise that settles like `body`'s, or rejected like this one.
    @inlinable
    public consuming func then<NewValue>(
        _ body: @escaping @MainActor (Value) throws -> Promise<NewValue>
    ) -> Promise<NewValue> {
        then(on: MainQueue.queue, MainQueue.adaptThrowing(body))
    }
}
