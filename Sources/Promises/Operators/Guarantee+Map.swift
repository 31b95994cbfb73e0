extension Guarantee {
    /// Transforms the value.
    ///
    /// - Parameters:
    ///   - queue: Where `transform` runs.
    ///   - transform: Makes the new value.
    /// - Returns: A guarantee of the transformed value.
    @inlinable
    public consuming func map<NewValue>(
        on queue: some Dispatcher,
        _ transform: @escaping @Sendable (Value) -> NewValue
    ) -> Guarantee<NewValue> {
        Guarantee<NewValue>(promise.map(on: queue, transform))
    }

    /// Transforms the value on the main actor.
    ///
    /// - Parameter transform: Makes the new value.
    /// - Returns: A guarantee of the transformed value.
    @inlinable
    public consuming func map<NewValue>(
        _ transform: @escaping @MainActor (Value) -> NewValue
    ) -> Guarantee<NewValue> {
        Guarantee<NewValue>(promise.map(transform))
    }
}
