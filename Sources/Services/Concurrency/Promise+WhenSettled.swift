package import Promises

extension Promise {
    /// Calls `body` on `queue` with how the promise settled, cancellation included; the rejection
    /// counts as handled. The one way code in this module waits for a result it must see whatever
    /// it is (a shared request's callers, each step of an outbox sync).
    ///
    /// - Parameters:
    ///   - queue: Where `body` runs.
    ///   - body: Gets the value or the error.
    package func whenSettled(
        on queue: some Dispatcher, _ body: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        done(on: queue) { body(.success($0)) }
            .catch(on: queue, policy: .allErrors) { body(.failure($0)) }
    }
}
