extension Promise {
    /// Runs `body` on `queue` once this promise is fulfilled and waits for the guarantee it
    /// returns, as `then` does for a promise (`promise.then(on: q) { _ in after(seconds: 1) }`).
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - body: Makes the guarantee to wait for; throwing rejects.
    /// - Returns: A promise of the guarantee's value.
    @_disfavoredOverload  // `.value(x)` without a type means a promise: `then { .value($0 + 1) }`
    @inlinable
    public func then<NewValue>(
        on queue: some Dispatcher,
        _ body: @escaping @Sendable (Value) throws -> Guarantee<NewValue>
    ) -> Promise<NewValue> {
        then(on: queue) { try body($0).asPromise() }
    }

    /// Runs `body` on the main actor once this promise is fulfilled and waits for the guarantee
    /// it returns.
    ///
    /// - Parameter body: Makes the guarantee to wait for; throwing rejects.
    /// - Returns: A promise of the guarantee's value.
    @_disfavoredOverload  // see above
    @inlinable
    public func then<NewValue>(
        _ body: @escaping @MainActor (Value) throws -> Guarantee<NewValue>
    ) -> Promise<NewValue> {
        then { try body($0).asPromise() }
    }
}

extension Guarantee {
    /// Runs `body` on `queue` with the value and waits for the promise it returns: the result
    /// can fail, so it is a promise.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - body: Makes the promise to wait for; throwing rejects.
    /// - Returns: The promise's outcome.
    @inlinable
    public func then<NewValue>(
        on queue: some Dispatcher,
        _ body: @escaping @Sendable (Value) throws -> Promise<NewValue>
    ) -> Promise<NewValue> {
        asPromise().then(on: queue, body)
    }

    /// Runs `body` on the main actor with the value and waits for the promise it returns.
    ///
    /// - Parameter body: Makes the promise to wait for; throwing rejects.
    /// - Returns: The promise's outcome.
    @inlinable
    public func then<NewValue>(
        _ body: @escaping @MainActor (Value) throws -> Promise<NewValue>
    ) -> Promise<NewValue> {
        asPromise().then(body)
    }

    /// Transforms the value on `queue` with a closure that may throw: the result can fail, so it
    /// is a promise. (A closure that cannot throw keeps a guarantee.)
    ///
    /// - Parameters:
    ///   - queue: Where `transform` runs.
    ///   - transform: Makes the new value; throwing rejects.
    /// - Returns: A promise of the new value.
    @inlinable
    public func map<NewValue>(
        on queue: some Dispatcher,
        _ transform: @escaping @Sendable (Value) throws -> NewValue
    ) -> Promise<NewValue> {
        asPromise().map(on: queue, transform)
    }

    /// Transforms the value on the main actor with a closure that may throw.
    ///
    /// - Parameter transform: Makes the new value; throwing rejects.
    /// - Returns: A promise of the new value.
    @inlinable
    public func map<NewValue>(
        _ transform: @escaping @MainActor (Value) throws -> NewValue
    ) -> Promise<NewValue> {
        asPromise().map(transform)
    }
}
