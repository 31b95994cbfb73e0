extension Promise where Value == Void {
    /// A promise already fulfilled, with nothing: the start of a chain, or the answer of work that
    /// had nothing to do.
    @inlinable
    public init() {
        self.init(fulfilled: ())
    }

    /// Handles an error of a promise of nothing on `queue`: `body` returns to fulfil, or throws
    /// (the same error or another) to pass a rejection on.
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - policy: Which errors `body` sees; cancellation passes by unless asked for.
    ///   - body: Handles the error, or rethrows.
    /// - Returns: A promise fulfilled once the error was handled.
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
