extension Promise {
    /// Replaces an error with the outcome of another promise: a fallback value, a retry, or a
    /// different error.
    ///
    /// A closure that returns a promise always picks this overload, `.value(x)` without naming the
    /// type included; on a `Promise<Void>` the overloads whose body returns nothing never take
    /// a closure that returns a promise (its outcome would be dropped).
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - policy: Which errors `body` sees; the others pass on unchanged.
    ///   - body: Makes the replacement; throwing rejects the returned promise.
    /// - Returns: A promise fulfilled like this one, or settled like `body`'s promise.
    @inlinable
    public func recover(
        on queue: some Dispatcher,
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @Sendable (any Error) throws -> Promise<Value>
    ) -> Promise<Value> {
        derive { next in
            { resolution in
                switch resolution {
                case .rejected(let error, _) where policy.admits(error):
                    queue.dispatch {
                        do {
                            next.adopt(try body(error))
                        } catch {
                            next.settle(.rejected(error, handled: false))
                        }
                    }
                case .fulfilled, .rejected:
                    next.settle(resolution)
                }
            }
        }
    }

    /// Replaces an error, on the main actor, with the outcome of another promise.
    ///
    /// - Parameters:
    ///   - policy: Which errors `body` sees; the others pass on unchanged.
    ///   - body: Makes the replacement; throwing rejects the returned promise.
    /// - Returns: A promise fulfilled like this one, or settled like `body`'s promise.
    @inlinable
    public func recover(
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @MainActor (any Error) throws -> Promise<Value>
    ) -> Promise<Value> {
        recover(on: MainQueue.queue, policy: policy, MainQueue.adaptThrowing(body))
    }

    /// Replaces every error, cancellation included, with a value that cannot fail, turning the
    /// promise into a ``Guarantee``.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - body: Makes the replacement.
    /// - Returns: A guarantee of this promise's value or of `body`'s.
    @_disfavoredOverload  // `.value(x)` without a type means a promise, as in `then`
    @inlinable
    public func recover(
        on queue: some Dispatcher,
        _ body: @escaping @Sendable (any Error) -> Guarantee<Value>
    ) -> Guarantee<Value> {
        Guarantee(
            derive(linkingCancellation: false) { next in
                { resolution in
                    switch resolution {
                    case .fulfilled:
                        next.settle(resolution)
                    case .rejected(let error, _):
                        queue.dispatch { next.adopt(body(error).promise) }
                    }
                }
            }
        )
    }

    /// Replaces every error, cancellation included, on the main actor with a value that cannot
    /// fail, turning the promise into a ``Guarantee``.
    ///
    /// - Parameter body: Makes the replacement.
    /// - Returns: A guarantee of this promise's value or of `body`'s.
    @_disfavoredOverload  // see above
    @inlinable
    public func recover(
        _ body: @escaping @MainActor (any Error) -> Guarantee<Value>
    ) -> Guarantee<Value> {
        recover(on: MainQueue.queue, MainQueue.adapt(body))
    }
}
