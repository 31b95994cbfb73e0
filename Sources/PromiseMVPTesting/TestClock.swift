public import Foundation
public import Services

/// A clock a test sets and moves by hand, for anything that takes a `now` closure (the outbox's
/// waits after a failure, a cache's age): `Outbox(database:feature:now: { clock.now })`, and for
/// anything that waits on a `SyncClock` (a `SyncScheduler`, an `APIProbe`): work scheduled on it
/// runs when the test moves the clock past its time, never by itself.
public final class TestClock: SyncClock, Sendable {
    private struct State {
        var current: Date
        var scheduled: [(id: Int, due: Date, work: @Sendable () -> Void)] = []
        var nextID = 0
    }
    /// Scheduled work runs outside the lock, so that it may schedule more.
    private let state: Locked<State>

    /// Makes a clock that shows `start`.
    ///
    /// - Parameter start: The time it shows until it is moved; 2027-01-15 08:00 UTC by default.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = Locked(State(current: start))
    }

    /// The time it shows.
    public var now: Date { state.withLock { $0.current } }

    /// When the scheduled work not run yet is due, soonest first.
    public var wakeUps: [Date] { state.withLock { $0.scheduled.map(\.due).sorted() } }

    /// Moves the clock on (or back, for a negative value), then runs the work that became due, in
    /// the order of its times.
    ///
    /// - Parameter seconds: How far.
    public func advance(_ seconds: TimeInterval) {
        let due = state.withLock { state -> [@Sendable () -> Void] in
            state.current.addTimeInterval(seconds)
            let current = state.current
            let due = state.scheduled.filter { $0.due <= current }.sorted {
                ($0.due, $0.id) < ($1.due, $1.id)
            }
            state.scheduled.removeAll { $0.due <= current }
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
        let id = state.withLock { state -> Int in
            state.nextID += 1
            state.scheduled.append((state.nextID, state.current.addingTimeInterval(max(0, seconds)), work))
            return state.nextID
        }
        return ScheduledWork { [weak self] in
            self?.state.withLock { $0.scheduled.removeAll { $0.id == id } }
        }
    }
}
