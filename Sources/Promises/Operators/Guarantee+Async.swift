extension Guarantee {
    /// Makes a guarantee of what a non-throwing `async` closure returns.
    ///
    /// - Parameter operation: The asynchronous work; it starts at once in a new task.
    public init(_ operation: @escaping @Sendable () async -> Value) {
        let (guarantee, resolve) = Self.pending()
        self = guarantee
        Task { resolve(await operation()) }
    }

    /// The value, once the guarantee is fulfilled.
    ///
    /// A guarantee cannot be cancelled, so this waits even if the awaiting task is cancelled.
    public var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                promise.subscribe { resolution in
                    if case .fulfilled(let value) = resolution {
                        continuation.resume(returning: value)
                    }
                }
            }
        }
    }
}
