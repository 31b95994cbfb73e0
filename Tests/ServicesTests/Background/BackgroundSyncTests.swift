import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import Services

/// `BackgroundSync`: the next wake asked for at each wake, the work run and the system told, the
/// work cancelled and the database suspended when the wake expires, each step in the wake log.
@Suite("Background sync")
struct BackgroundSyncTests {
    /// Records the requests submitted; refuses them when `refusing`.
    final class Scheduler: BackgroundTaskScheduler {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "background refresh is off" }
        }
        let submitted = Locked<[BackgroundTaskRequest]>([])
        let refusing: Bool

        init(refusing: Bool = false) {
            self.refusing = refusing
        }

        func submit(_ request: BackgroundTaskRequest) throws {
            if refusing { throw Refused() }
            submitted.withLock { $0.append(request) }
        }
    }

    /// A wake whose expiration the test fires, and which records what the system was told.
    final class Wake: BackgroundWake {
        let expiration = Locked<(@Sendable () -> Void)?>(nil)
        let completed = Locked<[Bool]>([])

        func onExpiration(_ handler: @escaping @Sendable () -> Void) {
            expiration.withLock { $0 = handler }
        }

        func complete(success: Bool) {
            completed.withLock { $0.append(success) }
        }

        func expire() {
            expiration.withLock { $0 }?()
        }
    }

    let folder = TemporaryFolder("BackgroundSyncTests")
    let start = Date(timeIntervalSince1970: 1_000_000)

    func sync(
        _ database: Database, _ scheduler: Scheduler, work: @escaping @Sendable () -> Promise<Int>
    ) -> BackgroundSync {
        BackgroundSync(
            identifier: "shop.sync", database: database, every: 900, scheduler: scheduler,
            now: { [start] in start },
            work: work)
    }

    func events(_ sync: BackgroundSync) async -> [WakeLogEntry.Event]? {
        await PromiseExpectations.value(of: sync.log.entries())?.map(\.event)
    }

    @Test("schedule asks for a wake an interval away and logs it; a refusal is logged with why")
    func scheduleLogsTheRequest() async throws {
        // Given
        let database = try Database(at: folder.file("app.sqlite"))
        let scheduler = Scheduler()
        let refused = Scheduler(refusing: true)
        // When
        let taken = await PromiseExpectations.value(of: sync(database, scheduler) { .value(0) }.schedule())
        let notTaken = await PromiseExpectations.value(of: sync(database, refused) { .value(0) }.schedule())
        // Then
        #expect(taken == true && notTaken == false)
        #expect(
            scheduler.submitted.withLock { $0 }
                == [BackgroundTaskRequest(identifier: "shop.sync", earliest: start + 900, kind: .appRefresh)])
        let log = try #require(await PromiseExpectations.value(of: WakeLog(database: database).entries()))
        #expect(log.map(\.event) == [.asked, .refused])
        #expect(log.last?.detail == "background refresh is off")
    }

    @Test("a wake asks for the next first, runs the work, logs what it sent and tells the system")
    func wakeRunsTheWork() async throws {
        // Given
        let database = try Database(at: folder.file("app.sqlite"))
        let scheduler = Scheduler()
        let background = sync(database, scheduler) { .value(12) }
        let wake = Wake()
        // When
        let finished = await PromiseExpectations.value(of: background.run(wake))
        // Then
        #expect(finished == true && wake.completed.withLock { $0 } == [true])
        #expect(scheduler.submitted.withLock { $0.count } == 1)
        #expect(await events(background) == [.woken, .asked, .finished])
        #expect(await PromiseExpectations.value(of: background.log.entries())?.last?.changes == 12)
        #expect(!database.isSuspended)
    }

    @Test("an expired wake cancels the work, logs it, suspends the database, then tells the system")
    func expirationCancelsAndSuspends() async throws {
        // Given: work that runs until it is cancelled
        let database = try Database(at: folder.file("app.sqlite"))
        let (work, seal) = Promise<Int>.pending()
        let cancelled = Locked(false)
        seal.setCancellationHandler { cancelled.withLock { $0 = true } }
        let (started, start) = Guarantee<Void>.pending()
        let background = sync(database, Scheduler()) {
            start(())
            return work
        }
        let wake = Wake()
        let told = background.run(wake)
        _ = await PromiseExpectations.value(of: started.asPromise())
        // When
        wake.expire()
        // Then
        #expect(await PromiseExpectations.value(of: told) == false)
        #expect(cancelled.withLock { $0 })
        #expect(wake.completed.withLock { $0 } == [false])
        #expect(database.isSuspended)
        database.resume()
        #expect(await events(background) == [.woken, .asked, .expired])
    }

    @Test("a failed sync is logged with why, and the system told it did not finish")
    func failureLogged() async throws {
        // Given
        let database = try Database(at: folder.file("app.sqlite"))
        let background = sync(database, Scheduler()) { Promise(error: URLError(.timedOut)) }
        let wake = Wake()
        // When
        let finished = await PromiseExpectations.value(of: background.run(wake))
        // Then
        #expect(finished == false && wake.completed.withLock { $0 } == [false])
        let last = await PromiseExpectations.value(of: background.log.entries())?.last
        #expect(last?.event == .failed && last?.detail == ServiceRequestError.timedOut.userMessage)
    }

    @Test("a wake of a suspended app resumes the database for the work and suspends it after")
    func suspendedAppResumedForTheWake() async throws {
        // Given: the app suspended its database when it went to the background
        let database = try Database(at: folder.file("app.sqlite"))
        _ = await PromiseExpectations.value(of: WakeLog(database: database).entries())
        _ = await PromiseExpectations.value(of: database.suspend())
        let background = sync(database, Scheduler()) {
            database.write { try $0.scalar("SELECT count(*) FROM wake_log") }.map { _ in 1 }
        }
        // When
        let finished = await PromiseExpectations.value(of: background.run(Wake()))
        // Then: the work could write; the database is suspended again
        #expect(finished == true)
        #expect(database.isSuspended)
        database.resume()
        #expect(await events(background) == [.woken, .asked, .finished])
    }

    @Test("the log keeps the newest entries only")
    func logKeepsTheNewest() async throws {
        // Given
        let log = WakeLog(database: try Database(at: folder.file("app.sqlite")))
        // When
        for index in 0..<(WakeLog.keep + 5) {
            _ = await PromiseExpectations.value(
                of: log.record(WakeLogEntry(task: "t", event: .finished, at: start, changes: index)))
        }
        // Then
        let kept = try #require(await PromiseExpectations.value(of: log.entries()))
        #expect(
            kept.count == WakeLog.keep && kept.first?.changes == 5 && kept.last?.changes == WakeLog.keep + 4)
    }

}

extension BackgroundSyncTests {
    @Test("an expiration after the work ended does nothing: the system was told once, nothing suspended")
    func lateExpirationDoesNothing() async throws {
        // Given: a wake whose work finished
        let database = try Database(at: folder.file("app.sqlite"))
        let background = sync(database, Scheduler()) { .value(3) }
        let wake = Wake()
        _ = await PromiseExpectations.value(of: background.run(wake))
        // When
        wake.expire()
        // Then
        _ = await PromiseExpectations.value(of: background.log.entries())
        #expect(wake.completed.withLock { $0 } == [true])
        #expect(!database.isSuspended)
        #expect(await events(background) == [.woken, .asked, .finished])
    }
}
