import Foundation
import PromiseMVPTesting
import Services
import Testing

/// The clock tests move by hand (`TestClock.swift`): work runs when the clock reaches its time,
/// never by itself, in the order of its times.
@Suite("TestClock")
struct TestClockTests {
    /// What ran, in order.
    let ran = Locked<[String]>([])

    func work(_ name: String) -> @Sendable () -> Void {
        let ran = ran
        return { ran.withLock { $0.append(name) } }
    }

    @Test("work runs once the clock reaches its time, not before, soonest first, ties as scheduled")
    func runsWhenDue() {
        // Given
        let clock = TestClock()
        let start = clock.now
        _ = clock.schedule(after: 10, work("ten"))
        _ = clock.schedule(after: 5, work("five"))
        _ = clock.schedule(after: 5, work("five again"))
        _ = clock.schedule(after: 20, work("twenty"))

        // When / Then: just short of the first time, nothing
        clock.advance(4.5)
        #expect(ran.withLock { $0 }.isEmpty)
        #expect(clock.wakeUps == [5, 5, 10, 20].map { start.addingTimeInterval($0) })

        // When / Then: at exactly its time, the work due, in order, once
        clock.advance(0.5)
        clock.advance(0)
        #expect(ran.withLock { $0 } == ["five", "five again"])
        #expect(clock.now == start.addingTimeInterval(5))

        // When / Then: past two times at once, both, soonest first
        clock.advance(100)
        #expect(ran.withLock { $0 } == ["five", "five again", "ten", "twenty"])
        #expect(clock.wakeUps.isEmpty)
    }

    @Test("cancelled work never runs; the rest still does")
    func cancelledWorkNeverRuns() {
        // Given
        let clock = TestClock()
        let cancelled = clock.schedule(after: 1, work("cancelled"))
        _ = clock.schedule(after: 2, work("kept"))

        // When
        cancelled.cancel()
        clock.advance(3)

        // Then
        #expect(ran.withLock { $0 } == ["kept"])
    }

    @Test("work asked for in the past is due now; work may schedule more, which waits for its own time")
    func pastIsNowAndWorkMaySchedule() {
        // Given: work that schedules more when it runs
        let clock = TestClock()
        let ran = ran
        let again = work("again")
        _ = clock.schedule(after: -5) {
            ran.withLock { $0.append("now") }
            _ = clock.schedule(after: 1, again)
        }

        // When
        clock.advance(0)

        // Then: the first ran; the one it scheduled waits for its second
        #expect(ran.withLock { $0 } == ["now"])
        clock.advance(1)
        #expect(ran.withLock { $0 } == ["now", "again"])
    }
}
