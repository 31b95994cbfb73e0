extension Promise {
    /// Transforms the value.
    ///
    /// - Parameters:
    ///   - queue: Where `transform` runs.
    ///   - transform: Makes the new value; throwing rejects the returned promise.
    /// - Returns: A promise of the transformed value, or rejected like this one.
    @inlinable
    public consuming func map<NewValue>(
        on queue: some Dispatcher,
        _ transform: @escaping @Sendable (Value) throws -> NewValue
    ) -> Promise<NewValue> {
        transformFulfilled(on: queue, transform)
    }

    /// Transforms the value on the main actor.
    ///
    /// - Parameter transform: Makes the new value; throwing rejects the returned promise.
    /// - Returns: A promise of the transformed value, or rejected like this one.
    @inlinable
    public consuming func map<NewValue>(
        _ transform: @escaping @MainActor (Value) throws -> NewValue
    ) -> Promise<NewValue> {
        map(on: MainQueue.queue, MainQueue.adaptThrowing(transform))
    }
}
