import Dispatch

/// Work that runs once after a delay unless cancelled first.
///
/// Cancelling releases the work at once, with everything it captured (a promise and its value), so
/// a long timeout that lost its race holds on to nothing but a small lock box until its deadline.
struct ScheduledWork: Sendable {
    private let work: Locked<(@Sendable () -> Void)?>

    init(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
        let box = Locked<(@Sendable () -> Void)?>(work)
        self.work = box
        let delay = seconds.isFinite ? max(seconds, 0) : 0
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            Self.take(from: box)?()
        }
    }

    /// Drops the work if it has not run yet.
    func cancel() {
        _ = Self.take(from: work)
    }

    private static func take(from box: Locked<(@Sendable () -> Void)?>) -> (@Sendable () -> Void)? {
        box.withLock { work in
            defer { work = nil }
            return work
        }
    }
}
