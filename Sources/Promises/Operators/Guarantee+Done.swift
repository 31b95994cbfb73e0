extension Guarantee {
    /// Consumes the value at the end of a chain.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - body: Uses the value.
    /// - Returns: A guarantee fulfilled once `body` ran.
    @discardableResult
    @inlinable
    public func done(
        on queue: some Dispatcher,
        _ body: @escaping @Sendable (Value) -> Void
    ) -> Guarantee<Void> {
        Guarantee<Void>(promise.done(on: queue, body))
    }

    /// Consumes the value on the main actor at the end of a chain.
    ///
    /// - Parameter body: Uses the value.
    /// - Returns: A guarantee fulfilled once `body` ran.
    @discardableResult
    @inlinable
    public func done(_ body: @escaping @MainActor (Value) -> Void) -> Guarantee<Void> {
        Guarantee<Void>(promise.done(body))
    }
}

extension Guarantee {
    /// Consumes the value on `queue` with a body that may throw: the result can fail, so it is a
    /// promise. (A body that cannot throw keeps a guarantee.)
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - body: Uses the value; throwing rejects.
    /// - Returns: A promise fulfilled once `body` ran, or rejected with what it threw.
    @discardableResult
    @inlinable
    public func done(
        on queue: some Dispatcher,
        _ body: @escaping @Sendable (Value) throws -> Void
    ) -> Promise<Void> {
        asPromise().done(on: queue, body)
    }

    /// Consumes the value on the main actor with a body that may throw.
    ///
    /// - Parameter body: Uses the value; throwing rejects.
    /// - Returns: A promise fulfilled once `body` ran, or rejected with what it threw.
    @discardableResult
    @inlinable
    public func done(_ body: @escaping @MainActor (Value) throws -> Void) -> Promise<Void> {
        asPromise().done(body)
    }
}
