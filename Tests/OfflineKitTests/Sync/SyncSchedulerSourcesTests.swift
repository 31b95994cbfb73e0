import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// Where a scheduler's triggers come from: the outbox it follows, and a monitor that asks the API.
@Suite("SyncScheduler: the outbox it follows, and the API probe")
struct SyncSchedulerSourcesTests {
    let folder = TemporaryFolder("SyncSchedulerSourcesTests")

    func notes(_ name: String = "notes.sqlite") throws -> (Database, Outbox) {
        let database = try Database(at: folder.file(name))
        return (database, Outbox(database: database, feature: "notes"))
    }

    static func queue(_ id: String, in database: Database, _ outbox: Outbox) async {
        _ = await PromiseExpectations.value(
            of: database.write { connection in
                try outbox.record(.post, "notes", body: Data("{}".utf8), localID: id, in: connection)
            })
    }

    @Test("a change queued in the outbox it follows, here or through another connection, brings a sync")
    func followsTheOutbox() async throws {
        // Given: idle, following the outbox; another connection to the same file
        let (database, outbox) = try notes()
        let (_, otherOutbox) = try notes()
        let subject = ScheduledSync()
        subject.scheduler.follow(outbox)
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        subject.sync.finish()
        _ = await subject.reach { $0 == .idle }
        // When: a change is queued here
        await Self.queue("a", in: database, outbox)
        // Then: a sync after the gathering wait
        _ = await subject.reach { $0.isWaiting }
        subject.clock.advance(0.2)
        _ = await subject.reach { $0 == .syncing }
        subject.sync.finish()
        _ = await subject.reach { $0 == .idle }
        // When: another writer queues one
        await Self.queue("b", in: otherOutbox.table.database, otherOutbox)
        // Then
        _ = await subject.reach { $0.isWaiting }
        subject.clock.advance(0.2)
        _ = await subject.reach { $0 == .syncing }
        #expect(subject.sync.calls == 3)
        subject.scheduler.stop()
    }

    @Test(
        "a change queued while one is sent (the outbox no longer, yet no more, than before) brings one more sync"
    )
    func changeQueuedWhileOneIsDelivered() async throws {
        // Given: one change waiting, and a sync running
        let (database, outbox) = try notes()
        await Self.queue("a", in: database, outbox)
        let subject = ScheduledSync()
        subject.scheduler.follow(outbox)
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        // When: in one transaction the waiting change is delivered and another is queued
        _ = await PromiseExpectations.value(
            of: database.write { connection in
                try connection.execute("DELETE FROM outbox WHERE local_id = 'a'")
                try outbox.record(.post, "notes", body: Data("{}".utf8), localID: "b", in: connection)
            })
        _ = await PromiseExpectations.value(of: database.read { _ in })
        await subject.decided()
        subject.sync.finish()
        // Then: one more sync for it
        _ = await subject.reach { $0 == .idle }
        _ = await subject.reach { $0 == .syncing }
        #expect(subject.sync.calls == 2)
        subject.scheduler.stop()
    }

    @Test(
        "after a sync found the API unreachable, the probe says so and asks on the backoff schedule until it answers"
    )
    func probeAsksUntilAnswered() async {
        // Given: an API that cannot be reached twice, then answers (an error status is an answer)
        let clock = TestClock()
        let answers = ProbeAnswers([
            .failure(URLError(.cannotConnectToHost)), .failure(URLError(.timedOut)),
            .failure(APIError.httpStatus(503, body: "")),
        ])
        let probe = APIProbe(
            clock: clock,
            backoff: RetryPolicy(maximumRetries: .max, baseDelay: 1, maximumDelay: 300, jitter: { $0 })
        ) { answers.next() }
        let told = DeliveryRecorder<Connectivity>()
        probe.start { told.record($0) }
        // When
        probe.syncFoundUnreachable()
        probe.syncFoundUnreachable()
        // Then: unreachable once, then questions 1, 2 and 4 s apart, and reachable at the third
        #expect(await told.next() == .unreachable)
        #expect(clock.wakeUps == [clock.now.addingTimeInterval(1)])
        clock.advance(1)
        #expect(clock.wakeUps == [clock.now.addingTimeInterval(2)])
        clock.advance(2)
        #expect(clock.wakeUps == [clock.now.addingTimeInterval(4)])
        clock.advance(4)
        #expect(await told.next() == .reachable)
        #expect(answers.asked == 3)
        #expect(clock.wakeUps.isEmpty)
        #expect(told.all == [.unreachable, .reachable])
    }

    @Test(
        "with the probe, a scheduler goes offline after a sync found no API, and syncs when the probe gets an answer"
    )
    func schedulerWithProbe() async {
        // Given
        let answers = ProbeAnswers([.failure(URLError(.cannotConnectToHost)), .success(())])
        let clockForProbe = TestClock()
        let probe = APIProbe(clock: clockForProbe) { answers.next() }
        let subject = ScheduledSync(connectivity: probe)
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        // When
        subject.sync.fail(ServiceRequestError.noNetwork)
        // Then: offline, nothing scheduled by the scheduler itself
        _ = await subject.reach { $0 == .offline }
        #expect(subject.clock.wakeUps.isEmpty)
        clockForProbe.advance(1)
        clockForProbe.advance(2)
        _ = await subject.reach { $0 == .syncing }
        #expect(subject.sync.calls == 2)
        #expect(answers.asked == 2)
        subject.scheduler.stop()
    }
}

/// A probe's answers, in turn; then it always answers.
final class ProbeAnswers: @unchecked Sendable {
    // `@unchecked Sendable` is sound: the stored properties are only touched while holding `lock`.
    private let lock = NSLock()
    private var answers: [Result<Void, any Error>]
    private(set) var asked = 0

    init(_ answers: [Result<Void, any Error>]) { self.answers = answers }

    func next() -> Promise<Void> {
        let answer = lock.withLock { () -> Result<Void, any Error> in
            asked += 1
            return answers.isEmpty ? .success(()) : answers.removeFirst()
        }
        switch answer {
        case .success: return .value(())
        case .failure(let error): return Promise(error: error)
        }
    }
}
