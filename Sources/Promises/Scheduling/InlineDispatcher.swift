/// Runs a handler on the thread that settles the promise, or at once if it already settled.
///
/// No hop is cheapest, but the handler then runs on whatever thread happens to settle the promise,
/// possibly inside the call that registers it. Use it for short, thread-agnostic transforms.
public struct InlineDispatcher: Dispatcher {
    /// Makes an inline dispatcher.
    @inlinable
    public init() {}

    /// Runs `work` now.
    ///
    /// - Parameter work: The handler to run.
    @inlinable
    public func dispatch(_ work: @escaping @Sendable () -> Void) {
        work()
    }
}

extension Dispatcher where Self == InlineDispatcher {
    /// Runs handlers without a hop, on the thread that settles the promise.
    @inlinable
    public static var inline: InlineDispatcher { InlineDispatcher() }
}
