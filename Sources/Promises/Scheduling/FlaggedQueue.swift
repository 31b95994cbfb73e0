public import Dispatch

/// A queue with `DispatchWorkItemFlags` for the handlers run on it: where PromiseKit writes
/// `then(on: queue, flags: .barrier)`, write `then(on: .queue(queue, flags: .barrier))`.
///
/// Each handler is a work item of its own, dispatched with the flags: it does not share a turn
/// with the queue's other promise handlers (see ``Dispatcher``), since a barrier must run alone.
public struct FlaggedQueue: Dispatcher {
    /// The queue the handlers run on.
    public let queue: DispatchQueue
    /// How each handler runs on it, kept as its raw value: `DispatchWorkItemFlags` is not marked
    /// `Sendable` on every platform, its raw `UInt` is.
    @usableFromInline
    let rawFlags: UInt

    /// How each handler runs on it.
    @inlinable
    public var flags: DispatchWorkItemFlags {
        DispatchWorkItemFlags(rawValue: rawFlags)
    }

    /// Runs handlers on `queue` with `flags`.
    ///
    /// - Parameters:
    ///   - queue: The queue the handlers run on.
    ///   - flags: How each handler runs.
    @inlinable
    public init(_ queue: DispatchQueue, flags: DispatchWorkItemFlags) {
        self.queue = queue
        rawFlags = flags.rawValue
    }

    /// Dispatches `work` to the queue, alone, with the flags.
    ///
    /// - Parameter work: The handler to run.
    @inlinable
    public func dispatch(_ work: @escaping @Sendable () -> Void) {
        queue.async(flags: flags, execute: work)
    }
}

extension Dispatcher where Self == FlaggedQueue {
    /// `queue`, with `flags` for each handler: `on: .queue(queue, flags: .barrier)`.
    ///
    /// - Parameters:
    ///   - queue: The queue the handlers run on.
    ///   - flags: How each handler runs.
    /// - Returns: The queue with its flags.
    @inlinable
    public static func queue(_ queue: DispatchQueue, flags: DispatchWorkItemFlags) -> FlaggedQueue {
        FlaggedQueue(queue, flags: flags)
    }
}
