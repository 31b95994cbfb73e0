import Foundation

/// Runs work that blocks (waiting on a semaphore, a process, a socket) on a thread of its own, and
/// waits for it from `async` code without blocking anything else.
///
/// Neither the cooperative pool nor GCD's global queues are the place for it: both have as few
/// threads as the machine has cores, and on a two-core machine two such waits would stop every
/// URLSession callback and promise handler behind them until they time out.
public enum BlockingWork {
    /// Runs `work` on a new thread and returns what it returns.
    ///
    /// - Parameter work: The blocking work.
    /// - Returns: Its result.
    public static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }
}
