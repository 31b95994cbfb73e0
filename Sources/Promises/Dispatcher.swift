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
    /// Runs `work` asynchronously on this queue.
    ///
    /// Handlers that become ready while this queue is running promise handlers (the next step of a
    /// chain on the same queue, say) join that turn of the queue instead of being dispatched one by
    /// one: they run after the handler that readied them, in the order they became ready, and a
    /// turn yields the queue to other blocks after a few hundred of them. So a chain of steps on one
    /// queue costs one hop, not one per step. Blocks you dispatch to the queue yourself may run after
    /// handlers that were readied later than them on this queue; on a concurrent queue, such
    /// handlers run one after another on the same thread.
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
