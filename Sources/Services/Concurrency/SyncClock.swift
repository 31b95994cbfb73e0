public import Foundation

/// The time, and work run later: what a `SyncScheduler` and an ``APIProbe`` wait with.
///
/// ``SystemSyncClock`` is the real one; tests use `TestClock` (`PromiseMVPTesting`), which runs
/// the work when the test moves it on.
public protocol SyncClock: Sendable {
    /// The time now.
    var now: Date { get }

    /// Runs `work` once, `seconds` from now, unless it is cancelled first.
    ///
    /// - Parameters:
    ///   - seconds: How long to wait; 0 or less runs it as soon as possible.
    ///   - work: What to run; on any thread.
    /// - Returns: What cancels it.
    func schedule(after seconds: TimeInterval, _ work: @escaping @Sendable () -> Void) -> ScheduledWork
}

/// Work a ``SyncClock`` will run later, which can still be cancelled.
public struct ScheduledWork: Sendable {
    private let cancelWork: @Sendable () -> Void

    /// Makes the handle of scheduled work.
    ///
    /// - Parameter cancel: Stops the work from running, if it has not run yet.
    public init(cancel: @escaping @Sendable () -> Void) {
        cancelWork = cancel
    }

    /// Stops the work from running, if it has not run yet.
    public func cancel() {
        cancelWork()
    }
}

/// The wall clock, and Dispatch's timers.
public struct SystemSyncClock: SyncClock {
    /// Makes the system clock.
    public init() {}

    /// The time now.
    public var now: Date { Date() }

    /// Runs `work` on a global queue after `seconds`.
    ///
    /// - Parameters:
    ///   - seconds: How long to wait.
    ///   - work: What to run.
    /// - Returns: What cancels it.
    public func schedule(after seconds: TimeInterval, _ work: @escaping @Sendable () -> Void) -> ScheduledWork
    {
        // Whichever comes first, running or cancelling, claims it; the other does nothing.
        let once = Once()
        let nanoseconds = Int(min(max(0, seconds), 86_400 * 365) * 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            if once.claim() { work() }
        }
        return ScheduledWork { _ = once.claim() }
    }
}

extension SyncClock where Self == SystemSyncClock {
    /// The wall clock.
    public static var system: SystemSyncClock { SystemSyncClock() }
}
