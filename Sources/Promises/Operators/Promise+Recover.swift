extension Promise {
    /// Replaces an error with the outcome of another promise (or guarantee): a fallback value, a
    /// retry, or a different error.
    ///
    /// As in PromiseKit, what `body` returns is any ``Thenable``, so a closure that names what it
    /// returns (`Promise.value(x)`, `somePromise`, `Promise(error: e)`) picks this overload, while
    /// `.value(x)` without a type picks the one that returns a ``Guarantee`` and handles every
    /// error, cancellation included. On a `Promise<Void>` the overloads whose body returns
    /// nothing never take a closure that returns a promise (its outcome would be dropped).
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - policy: Which errors `body` sees; the others pass on unchanged.
    ///   - body: Makes the replacement; throwing rejects the returned promise.
    /// - Returns: A promise fulfilled like this one, or settled like `body`'s promise.
    @inlinable
    public func recover<Replacement: Thenable>(
        on queue: some Dispatcher,
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @Sendable (any Error) throws -> Replacement
    ) -> Promise<Value> where Replacement.Value == Value {
        derive { next in
            { resolution in
                switch resolution {
                case .rejected(let error, _) where policy.admits(error):
                    queue.dispatch {
                        do {
                            next.adopt(try body(error).asPromise())
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

    /// Replaces an error with another: a body that only throws (`recover { throw MyError($0) }`),
    /// whose return type Swift cannot infer for the overload that takes any ``Thenable``.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - policy: Which errors `body` sees; the others pass on unchanged.
    ///   - body: Throws the replacement error.
    /// - Returns: A promise fulfilled like this one, or rejected with `body`'s error.
    @inlinable
    public func recover(
        on queue: some Dispatcher,
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @Sendable (any Error) throws -> Never
    ) -> Promise<Value> {
        recover(on: queue, policy: policy) { error -> Promise<Value> in try body(error) }
    }

    /// The same for a body Swift cannot type as returning any ``Thenable``: `.value(x)` with a
    /// `policy` (the overload that gives a guarantee takes none), which then means a promise.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - policy: Which errors `body` sees; the others pass on unchanged.
    ///   - body: Makes the replacement; throwing rejects the returned promise.
    /// - Returns: A promise fulfilled like this one, or settled like `body`'s promise.
    @_disfavoredOverload  // `.value(x)` without a policy means a guarantee, as in PromiseKit
    @inlinable
    public func recover(
        on queue: some Dispatcher,
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @Sendable (any Error) throws -> Promise<Value>
    ) -> Promise<Value> {
        recover(on: queue, policy: policy) { error -> Promise<Value> in try body(error) }
    }

    /// Replaces an error, on the main actor, with the outcome of another promise.
    ///
    /// - Parameters:
    ///   - policy: Which errors `body` sees; the others pass on unchanged.
    ///   - body: Makes the replacement; throwing rejects the returned promise.
    /// - Returns: A promise fulfilled like this one, or settled like `body`'s promise.
    @inlinable
    public func recover<Replacement: Thenable>(
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @MainActor (any Error) throws -> Replacement
    ) -> Promise<Value> where Replacement.Value == Value {
        recover(on: MainQueue.queue, policy: policy, MainQueue.adaptThrowing(body))
    }

    /// Replaces an error, on the main actor, with another: a body that only throws.
    ///
    /// - Parameters:
    ///   - policy: Which errors `body` sees; the others pass on unchanged.
    ///   - body: Throws the replacement error.
    /// - Returns: A promise fulfilled like this one, or rejected with `body`'s error.
    @inlinable
    public func recover(
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @MainActor (any Error) throws -> Never
    ) -> Promise<Value> {
        recover(on: MainQueue.queue, policy: policy, MainQueue.adaptThrowing(body))
    }

    /// Replaces an error, on the main actor, with a promise, for a body Swift cannot type as
    /// returning any ``Thenable``: `.value(x)` with a `policy`.
    ///
    /// - Parameters:
    ///   - policy: Which errors `body` sees; the others pass on unchanged.
    ///   - body: Makes the replacement; throwing rejects the returned promise.
    /// - Returns: A promise fulfilled like this one, or settled like `body`'s promise.
    @_disfavoredOverload  // `.value(x)` without a policy means a guarantee, as in PromiseKit
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
    @inlinable
    public func recover(
        _ body: @escaping @MainActor (any Error) -> Guarantee<Value>
    ) -> Guarantee<Value> {
        recover(on: MainQueue.queue, MainQueue.adapt(body))
    }
}
