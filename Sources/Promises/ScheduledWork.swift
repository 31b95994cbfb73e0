import Dispatch
import Synchronization

/// Work that runs once after a delay unless cancelled first.
///
/// Cancelling releases the work at once, with everything it captured (a promise and its value), so
/// a long timeout that lost its race holds on to nothing but this small box until its deadline.
final class ScheduledWork: Sendable {
    private let work: Mutex<(@Sendable () -> Void)?>

    init(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
        self.work = Mutex(work)
        let delay = seconds.isFinite ? max(seconds, 0) : 0
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
            take()?()
        }
    }

    /// Drops the work if it has not run yet.
    func cancel() {
        _ = take()
    }

    private func take() -> (@Sendable () -> Void)? {
        work.withLock { work in
            defer { work = nil }
            return work
        }
    }
}
