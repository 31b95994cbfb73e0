extension Promise {
    /// Makes a promise of what an `async` closure returns or throws.
    ///
    /// The closure starts at once in a new task. Cancelling the promise cancels that task.
    ///
    /// - Parameter operation: The asynchronous work.
    public init(_ operation: @escaping @Sendable () async throws -> Value) {
        let (promise, seal) = Self.pending(abandonment: .promise)
        self = promise
        let task = Task {
            do {
                seal.fulfill(try await operation())
            } catch {
                seal.reject(error)
            }
        }
        setCancellationHandler { task.cancel() }
    }

    /// The value, once the promise is fulfilled; throws the error it is rejected with.
    ///
    /// If the awaiting task is cancelled first, this throws `CancellationError`, and the promise is
    /// cancelled too when that stops some work (see ``cancel()``); a promise others may still be
    /// waiting on is left alone.
    public var value: Value {
        get async throws {
            if let settled = result {
                return try settled.get()
            }
            let box = ContinuationBox<Value>()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    box.suspend(continuation)
                    subscribe { resolution in box.resume(with: resolution.result) }
                }
            } onCancel: {
                cancelIfCancellable()
                box.resume(with: .failure(CancellationError()))
            }
        }
    }
}
