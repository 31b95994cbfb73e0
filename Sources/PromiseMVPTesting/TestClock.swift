public import Foundation
public import Services

/// A clock a test sets and moves by hand, for anything that takes a `now` closure (the outbox's
/// waits after a failure, a cache's age): `Outbox(database:feature:now: { clock.now })`, and for
/// anything that waits on a `SyncClock` (a `SyncScheduler`, an `APIProbe`): work scheduled on it
/// runs when the test moves the clock past its time, never by itself.
public final class TestClock: SyncClock, @unchecked Sendable {
    // `@unchecked Sendable` is sound: `current`, `scheduled` and `nextID` are only read or written
    // while holding `lock`; scheduled work runs outside it.
    private let lock = NSLock()
    private var current: Date
    private var scheduled: [(id: Int, due: Date, work: @Sendable () -> Void)] = []
    private var nextID = 0

    /// Makes a clock that shows `start`.
    ///
    /// - Parameter start: The time it shows until it is moved; 2027-01-15 08:00 UTC by default.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = start
    }

    /// The time it shows.
    public var now: Date { lock.withLock { current } }

    /// When the scheduled work not run yet is due, soonest first.
    public var wakeUps: [Date] { lock.withLock { scheduled.map(\.due).sorted() } }

    /// Moves the clock on (or back, for a negative value), then runs the work that became due, in
    /// the order of its times.
    ///
    /// - Parameter seconds: How far.
    public func advance(_ seconds: TimeInterval) {
        let due = lock.withLock { () -> [@Sendable () -> Void] in
            current.addTimeInterval(seconds)
            let due = scheduled.filter { $0.due <= current }.sorted { ($0.due, $0.id) < ($1.due, $1.id) }
            scheduled.removeAll { $0.due <= current }
            return due.map(\.work)
        }
        for work in due { work() }
    }

    /// Keeps `work` until the clock is moved to `seconds` from now or past it.
    ///
    /// - Parameters:
    ///   - seconds: How long from now.
    ///   - work: What to run then.
    /// - Returns: What cancels it.
    public func schedule(after seconds: TimeInterval, _ work: @escaping @Sendable () -> Void) -> ScheduledWork
    {
        let id = lock.withLock { () -> Int in
            nextID += 1
            scheduled.append((nextID, current.addingTimeInterval(max(0, seconds)), work))
            return nextID
        }
        return ScheduledWork { [weak self] in
            self?.lock.withLock { self?.scheduled.removeAll { $0.id == id } }
        }
    }
}
