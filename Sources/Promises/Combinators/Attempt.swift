/// Runs `body` until its promise is fulfilled, up to `maximumAttempts` times, waiting
/// `delayBeforeRetry` seconds between attempts.
///
/// A cancellation is never retried, and neither is an error for which `shouldRetry` returns false.
/// Cancelling the returned promise stops the retries and cancels the attempt under way when that
/// attempt can be cancelled.
///
/// - Parameters:
///   - maximumAttempts: How many times `body` may run in all; values below 1 count as 1.
///   - delayBeforeRetry: Seconds to wait after a failure before the next attempt.
///   - shouldRetry: Whether an error is worth another attempt (for example, not a 4xx response).
///   - body: Starts one attempt; it runs at once for the first, then on a global queue.
/// - Returns: A promise that settles like the last attempt.
public func attempt<Value>(
    maximumAttempts: Int = 3,
    delayBeforeRetry: Double = 1,
    retryIf shouldRetry: @escaping @Sendable (any Error) -> Bool = { _ in true },
    _ body: @escaping @Sendable () throws -> Promise<Value>
) -> Promise<Value> {
    let result = Promise<Value>.derived()
    let inFlight = InFlightAttempt()
    result.setCancellationHandler { inFlight.cancel() }

    @Sendable func run(_ number: Int) {
        guard result.isPending else { return }
        let attempt = firstly(body)
        let cancellable = attempt.subscribe { resolution in
            if case .rejected(let error, _) = resolution, number < maximumAttempts,
                !error.isCancellation, shouldRetry(error), result.isPending
            {
                inFlight.replace(with: ScheduledWork(after: delayBeforeRetry) { run(number + 1) })
            } else {
                result.settle(resolution)
            }
        }
        if cancellable { inFlight.replace(with: attempt) }
    }

    run(1)
    return result
}

/// The same as ``attempt(maximumAttempts:delayBeforeRetry:retryIf:_:)``, under the other name
/// users look for.
///
/// - Parameters:
///   - maximumAttempts: How many times `body` may run in all; values below 1 count as 1.
///   - delayBeforeRetry: Seconds to wait after a failure before the next attempt.
///   - shouldRetry: Whether an error is worth another attempt.
///   - body: Starts one attempt.
/// - Returns: A promise that settles like the last attempt.
public func retry<Value>(
    maximumAttempts: Int = 3,
    delayBeforeRetry: Double = 1,
    retryIf shouldRetry: @escaping @Sendable (any Error) -> Bool = { _ in true },
    _ body: @escaping @Sendable () throws -> Promise<Value>
) -> Promise<Value> {
    attempt(
        maximumAttempts: maximumAttempts, delayBeforeRetry: delayBeforeRetry, retryIf: shouldRetry,
        body)
}

/// What a cancelled `attempt` must stop: the attempt under way, or the timer before the next one.
private struct InFlightAttempt: Sendable {
    private let current = Locked<(@Sendable () -> Void)?>(nil)

    func replace<Value>(with attempt: Promise<Value>) {
        current.withLock { $0 = { attempt.cancel() } }
    }

    func replace(with timer: ScheduledWork) {
        current.withLock { $0 = { timer.cancel() } }
    }

    func cancel() {
        let stop = current.withLock { current in
            defer { current = nil }
            return current
        }
        stop?()
    }
}
