public import Dispatch

/// Where a promise handler runs: a `DispatchQueue`, or ``InlineDispatcher`` for no hop at all.
///
/// Every operator's `on:` parameter takes one, so `on: .main`, `on: .global()`, `on: myQueue` and
/// `on: .inline` all read naturally.
public protocol Dispatcher: Sendable {
    /// Runs `work` once, later or now, on this dispatcher's thread or queue.
    ///
    /// - Parameter work: The handler to run.
    func dispatch(_ work: @escaping @Sendable () -> Void)
}

extension DispatchQueue: Dispatcher {
    /// Runs `work` asynchronously on this queue, in turn with the queue's other promise handlers:
    /// handlers keep their order among themselves, but not against blocks you dispatch to the same
    /// queue yourself (the README's "Where handlers run" says why, and what a turn is).
    ///
    /// - Parameter work: The handler to run.
    @inlinable
    public func dispatch(_ work: @escaping @Sendable () -> Void) {
        QueueMailbox.post(work, to: self)
    }
}

extension Dispatcher where Self == DispatchQueue {
    /// The main queue, where the main actor runs.
    @inlinable
    public static var main: DispatchQueue { DispatchQueue.main }

    /// A global concurrent queue.
    ///
    /// - Parameter qos: The quality of service of the queue.
    /// - Returns: The global queue for `qos`.
    @inlinable
    public static func global(qos: DispatchQoS.QoSClass = .default) -> DispatchQueue {
        DispatchQueue.global(qos: qos)
    }
}
