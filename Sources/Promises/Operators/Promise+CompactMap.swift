extension Promise {
    /// Transforms the value, rejecting with ``PromiseError/compactMapReturnedNil`` when the
    /// transform finds nothing.
    ///
    /// - Parameters:
    ///   - queue: Where `transform` runs.
    ///   - transform: Makes the new value or `nil`; throwing rejects the returned promise.
    /// - Returns: A promise of the transformed value, or rejected.
    @inlinable
    public consuming func compactMap<NewValue>(
        on queue: some Dispatcher,
        _ transform: @escaping @Sendable (Value) throws -> NewValue?
    ) -> Promise<NewValue> {
        transformFulfilled(on: queue) { value in
            guard let newValue = try transform(value) else { throw PromiseError.compactMapReturnedNil }
            return newValue
        }
    }

    /// Transforms the value on the main actor, rejecting with
    /// ``PromiseError/compactMapReturnedNil`` when the transform finds nothing.
    ///
    /// - Parameter transform: Makes the new value or `nil`; throwing rejects the returned promise.
    /// - Returns: A promise of the transformed value, or rejected.
    @inlinable
    public consuming func compactMap<NewValue>(
        _ transform: @escaping @MainActor (Value) throws -> NewValue?
    ) -> Promise<NewValue> {
        compactMap(on: MainQueue.queue, MainQueue.adaptThrowing(transform))
    }
}
