public import Foundation

/// A clock a test sets and moves by hand, for anything that takes a `now` closure (the outbox's
/// waits after a failure, a cache's age): `Outbox(database:feature:now: { clock.now })`.
public final class TestClock: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `current` is only read or written while holding `lock`.
    private let lock = NSLock()
    private var current: Date

    /// Makes a clock that shows `start`.
    ///
    /// - Parameter start: The time it shows until it is moved; 2027-01-15 08:00 UTC by default.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = start
    }

    /// The time it shows.
    public var now: Date { lock.withLock { current } }

    /// Moves the clock on (or back, for a negative value).
    ///
    /// - Parameter seconds: How far.
    public func advance(_ seconds: TimeInterval) {
        lock.withLock { current.addTimeInterval(seconds) }
    }
}
