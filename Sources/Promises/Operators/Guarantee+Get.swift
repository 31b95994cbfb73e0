extension Guarantee {
    /// Looks at the value and passes it on unchanged.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - body: Uses the value.
    /// - Returns: A guarantee of the same value once `body` ran.
    @inlinable
    public consuming func get(
        on queue: some Dispatcher,
        _ body: @escaping @Sendable (Value) -> Void
    ) -> Guarantee<Value> {
        Guarantee(promise.get(on: queue, body))
    }

    /// Looks at the value on the main actor and passes it on unchanged.
    ///
    /// - Parameter body: Uses the value.
    /// - Returns: A guarantee of the same value once `body` ran.
    @inlinable
    public consuming func get(_ body: @escaping @MainActor (Value) -> Void) -> Guarantee<Value> {
        Guarantee(promise.get(body))
    }
}
