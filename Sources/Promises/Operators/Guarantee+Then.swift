extension Guarantee {
    /// Starts the next step that cannot fail with the value.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - body: Starts the next step.
    /// - Returns: A guarantee that settles like `body`'s.
    @inlinable
    public consuming func then<NewValue>(
        on queue: some Dispatcher,
        _ body: @escaping @Sendable (Value) -> Guarantee<NewValue>
    ) -> Guarantee<NewValue> {
        Guarantee<NewValue>(promise.then(on: queue) { body($0).promise })
    }

    /// Starts the next step that cannot fail with the value, on the main actor.
    ///
    /// - Parameter body: Starts the next step.
    /// - Returns: A guarantee that settles like `body`'s.
    @inlinable
    public consuming func then<NewValue>(
        _ body: @escaping @MainActor (Value) -> Guarantee<NewValue>
    ) -> Guarantee<NewValue> {
        Guarantee<NewValue>(promise.then { body($0).promise })
    }
}
