extension Promise {
    /// Consumes the value at the end of a chain.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - body: Uses the value; throwing rejects the returned promise.
    /// - Returns: A promise fulfilled once `body` ran, for `catch` or `finally` to follow.
    @discardableResult
    @inlinable
    public func done(
        on queue: some Dispatcher,
        _ body: @escaping @Sendable (Value) throws -> Void
    ) -> Promise<Void> {
        follow(with: DoneStep(on: type(of: queue), body), on: queue)
    }

    /// Consumes the value on the main actor at the end of a chain.
    ///
    /// - Parameter body: Uses the value; throwing rejects the returned promise.
    /// - Returns: A promise fulfilled once `body` ran, for `catch` or `finally` to follow.
    @discardableResult
    @inlinable
    public func done(_ body: @escaping @MainActor (Value) throws -> Void) -> Promise<Void> {
        done(on: MainQueue.queue, MainQueue.adaptThrowing(body))
    }
}
