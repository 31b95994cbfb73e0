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
