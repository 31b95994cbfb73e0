extension Promise {
    /// Looks at the value and passes it on unchanged.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - body: Uses the value; throwing rejects the returned promise.
    /// - Returns: A promise fulfilled with the same value once `body` ran.
    @inlinable
    public consuming func get(
        on queue: some Dispatcher,
        _ body: @escaping @Sendable (Value) throws -> Void
    ) -> Promise<Value> {
        transformFulfilled(on: queue) { value in
            try body(value)
            return value
        }
    }

    /// Looks at the value on the main actor and passes it on unchanged.
    ///
    /// - Parameter body: Uses the value; throwing rejects the returned promise.
    /// - Returns: A promise fulfilled with the same value once `body` ran.
    @inlinable
    public consuming func get(_ body: @escaping @MainActor (Value) throws -> Void) -> Promise<Value> {
        get(on: MainQueue.queue, MainQueue.adaptThrowing(body))
    }
}
