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
    /// Promise handlers are not dispatched one block each: they wait in the queue's mailbox, and the
    /// first handler of a burst dispatches one block, a turn, that runs every handler posted before
    /// it starts, in the order they were posted. A handler that a turn readies for its own queue (the
    /// next step of a chain on that queue, say) runs in the same turn, after the one that readied it,
    /// unless handlers readied earlier still wait: then it waits behind them for a later turn.
    /// A turn runs at most a thousand or so handlers and then lets the queue's other blocks run. So
    /// a burst of handlers, or a chain on one queue, costs a few blocks instead of one per handler.
    ///
    /// What this changes for you: handlers keep their order among themselves, but their order
    /// against blocks you dispatch to the same queue yourself is not defined. A handler can run
    /// before a block dispatched before it was posted (it joined a turn that was already waiting),
    /// or after one dispatched later (its turn had used up its budget). On a concurrent queue you
    /// made, the handlers of one turn run one after another. The global queues get no mailbox: there
    /// each handler is its own block, so they still run in parallel.
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
