extension Promise where Value == Void {
    /// A promise already fulfilled, with nothing: the start of a chain, or the answer of work that
    /// had nothing to do.
    @inlinable
    public init() {
        self.init(fulfilled: ())
    }

    /// A promise already fulfilled, with nothing: `Promise<Void>.value`, as PromiseKit spells it
    /// beside `Promise.value(())`.
    @inlinable
    public static var value: Promise<Void> { Promise() }

    /// Handles every error of a promise of nothing on `queue`, cancellation included, and ends the
    /// chain's failure: what PromiseKit calls the "full recover". `body` cannot throw, so what
    /// comes out is a ``Guarantee``; the chain after it runs however this promise settled.
    ///
    /// A body that may throw picks the overload with a `policy`, which gives a promise; a body that
    /// returns a promise picks `recover(on:policy:_:)`, and its outcome is the result. A body of
    /// several statements that returns nothing says so, `recover { error -> Void in ... }`: without
    /// it Swift reads the body as one that returns a promise and reports a missing `return`.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - body: Handles the error.
    /// - Returns: A guarantee fulfilled once this promise is, or once `body` handled its error.
    @_disfavoredOverload  // a body that returns a promise is never taken as one that returns nothing
    @discardableResult
    @inlinable
    public func recover(
        on queue: some Dispatcher,
        _ body: @escaping @Sendable (any Error) -> Void
    ) -> Guarantee<Void> {
        recover(on: queue) { error -> Guarantee<Void> in
            body(error)
            return Guarantee.value(())
        }
    }

    /// Handles every error of a promise of nothing on the main actor, cancellation included: the
    /// "full recover", giving a ``Guarantee``.
    ///
    /// - Parameter body: Handles the error.
    /// - Returns: A guarantee fulfilled once this promise is, or once `body` handled its error.
    @_disfavoredOverload  // see above
    @discardableResult
    @inlinable
    public func recover(
        _ body: @escaping @MainActor (any Error) -> Void
    ) -> Guarantee<Void> {
        recover { error -> Guarantee<Void> in
            body(error)
            return Guarantee.value(())
        }
    }

    /// Handles an error of a promise of nothing on `queue`: `body` returns to fulfil, or throws
    /// (the same error or another) to pass a rejection on.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - policy: Which errors `body` sees; cancellation passes by unless asked for.
    ///   - body: Handles the error, or rethrows.
    /// - Returns: A promise fulfilled once the error was handled.
    @_disfavoredOverload  // see above
    @inlinable
    public func recover(
        on queue: some Dispatcher,
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @Sendable (any Error) throws -> Void
    ) -> Promise<Void> {
        recover(on: queue, policy: policy) { error -> Promise<Void> in
            try body(error)
            return Promise()
        }
    }

    /// Handles an error of a promise of nothing on the main actor: `body` returns to fulfil, or
    /// throws to pass a rejection on.
    ///
    /// - Parameters:
    ///   - policy: Which errors `body` sees; cancellation passes by unless asked for.
    ///   - body: Handles the error, or rethrows.
    /// - Returns: A promise fulfilled once the error was handled.
    @_disfavoredOverload  // see above
    @inlinable
    public func recover(
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @MainActor (any Error) throws -> Void
    ) -> Promise<Void> {
        recover(policy: policy) { error -> Promise<Void> in
            try body(error)
            return Promise()
        }
    }
}
