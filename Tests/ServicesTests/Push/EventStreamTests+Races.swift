import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// A stop racing a reconnection: in the moment the wait is scheduled, and after the attempt has
/// fired but before it runs (its cancel too late). Staged with a clock that runs the stop while it
/// schedules, or that cannot cancel.
extension EventStreamTests {
    /// A test clock that can run something in the moment work is scheduled, and whose cancels can
    /// come too late (the work had fired already).
    final class RacingClock: SyncClock {
        let base: TestClock
        let cancelsInTime: Bool
        /// Runs once, as the next work is scheduled.
        let onSchedule = Locked<(@Sendable () -> Void)?>(nil)

        init(_ base: TestClock, cancelsInTime: Bool) {
            (self.base, self.cancelsInTime) = (base, cancelsInTime)
        }

        var now: Date { base.now }

        func schedule(after seconds: TimeInterval, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
            let scheduled = base.schedule(after: seconds, work)
            let hook = onSchedule.withLock { hook in
                defer { hook = nil }
                return hook
            }
            hook?()
            return ScheduledWork { [cancelsInTime] in
                if cancelsInTime { scheduled.cancel() }
            }
        }
    }

    /// A token given at once, counting how often it was asked for.
    final class CountedToken: Credentials {
        let asked = Locked(0)
        var account: String? { "amy" }
        func accessToken() -> Promise<String> {
            asked.withLock { $0 += 1 }
            return .value("t0k3n")
        }
        func refresh(replacing token: String) -> Promise<String> { .value("t0k3n") }
    }

    @Test("a stop in the moment a reconnection is scheduled stays stopped, with nothing left to run")
    func stopWhileSchedulingTheReconnection() async throws {
        // Given: a live stream whose clock stops it as the next wait is scheduled
        let clock = TestClock()
        let racing = RacingClock(clock, cancelsInTime: true)
        let fixture = try Fixture(clock: clock, streamClock: racing)
        defer { fixture.stop() }
        #expect(await fixture.startLive())
        racing.onSchedule.withLock { $0 = { fixture.stream.stop() } }

        // When: the server drops the connection
        fixture.source.dropConnections()

        // Then: stopped, not waiting, and the attempt cancelled
        #expect(await fixture.states.next(where: { $0 == .stopped }) == .stopped)
        #expect(fixture.stream.state == .stopped)
        #expect(!fixture.states.all.contains { if case .waiting = $0 { true } else { false } })
        #expect(clock.wakeUps.isEmpty)
    }

    @Test("a reconnection that fired as the stream stopped asks for nothing: no token, no request, no state")
    func stopAfterTheReconnectionFired() async throws {
        // Given: a stream waiting to connect again, whose clock cannot cancel the attempt
        let clock = TestClock()
        let credentials = CountedToken()
        let fixture = try Fixture(
            credentials: credentials, clock: clock,
            streamClock: RacingClock(clock, cancelsInTime: false))
        defer { fixture.stop() }
        #expect(await fixture.startLive())
        fixture.source.dropConnections()
        let wait = try #require(await fixture.nextWait())

        // When: stopped, and the attempt runs anyway
        fixture.stream.stop()
        #expect(await fixture.states.next(where: { $0 == .stopped }) == .stopped)
        clock.advance(wait)

        // Then
        #expect(fixture.stream.state == .stopped)
        #expect(credentials.asked.withLock { $0 } == 1)
        #expect(fixture.server.requests.count == 1)
    }
}
