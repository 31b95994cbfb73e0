import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// A claim holds by its holder's heartbeat, never by a wall-clock lapse, and a change is read and
/// marked for sending in one transaction (`OutboxClaim.swift`, `OutboxReplay.step`).
extension OutboxClaimTests {
    @Test("a live holder's claim is not taken by a process whose clock jumped an hour forward")
    func clockJumpDoesNotTakeALiveClaim() async throws {
        // Given: a claim renewed just now by this process (alive), and a change waiting
        let folder = TemporaryFolder("OutboxClaimTests")
        let processes = try Self.processes(1, in: folder)
        let (database, holderOutbox) = processes[0]
        await OutboxTests.write(database, holderOutbox, .put, id: "a")
        let holder = OutboxClaim(feature: "notes", lease: 35)
        #expect(
            await PromiseExpectations.value(of: database.write { try holder.renew(at: Date(), $0) }) == true)
        let jumped = Outbox(database: database, feature: "notes", now: { Date().addingTimeInterval(3_600) })
        let api = try TestHTTPServer(responder: { _ in .status(200, body: "{}") })
        defer { api.stop() }

        // When
        let report = await PromiseExpectations.value(
            of: jumped.sync(with: APIClient(baseURL: api.baseURL, timeout: 30)) { _, _, _ in nil })

        // Then
        #expect(report?.sendingElsewhere == true)
        #expect(api.requests.isEmpty)
    }

    @Test("a holder that renews keeps its claim past a lease; one whose beat stands still a lease is taken")
    func heartbeatDecides() async throws {
        // Given: a claim of a live holder (this process), and a change waiting
        let clock = TestClock()
        let (database, outbox) = try OutboxTests.notes(clock: clock)
        await OutboxTests.write(database, outbox, .put, id: "a")
        let holder = OutboxClaim(feature: "notes", lease: 35)
        _ = await PromiseExpectations.value(of: database.write { try holder.renew(at: clock.now, $0) })
        let api = try TestHTTPServer(responder: { _ in .status(200, body: "{}") })
        defer { api.stop() }
        let client = APIClient(baseURL: api.baseURL, timeout: 30)

        // When: seen, then the holder renews, then a lease later; then a lease without renewal
        let first = await PromiseExpectations.value(of: outbox.sync(with: client) { _, _, _ in nil })
        _ = await PromiseExpectations.value(of: database.write { try holder.renew(at: clock.now, $0) })
        clock.advance(61)
        let renewed = await PromiseExpectations.value(of: outbox.sync(with: client) { _, _, _ in nil })
        clock.advance(61)
        let stalled = await PromiseExpectations.value(of: outbox.sync(with: client) { _, _, _ in nil })

        // Then
        #expect(first?.sendingElsewhere == true && renewed?.sendingElsewhere == true)
        #expect(stalled?.sent.map(\.localID) == ["a"])
        #expect(api.requests.count == 1)
    }

    @Test("a stalled claim taken over is the taker's: its holder, come back, finds it held")
    func stalledClaimBecomesTheTakers() async throws {
        // Given: a holder's claim, and a taker watching it on the test's clock
        let clock = TestClock()
        let (database, outbox) = try OutboxTests.notes(clock: clock)
        _ = await PromiseExpectations.value(of: outbox.ready)
        let holder = OutboxClaim(feature: "notes", lease: 35)
        var watching = OutboxClaim(feature: "notes", lease: 35)
        watching.watch = ClaimWatch(elapsed: { clock.now.timeIntervalSince1970 })
        let taker = watching
        _ = await PromiseExpectations.value(of: database.write { try holder.renew(at: clock.now, $0) })
        let seen = await PromiseExpectations.value(of: database.write { try taker.renew(at: clock.now, $0) })

        // When: its beat stands still a lease, and the taker renews
        clock.advance(35)
        let taken = await PromiseExpectations.value(of: database.write { try taker.renew(at: clock.now, $0) })
        let owner = await PromiseExpectations.value(
            of: database.read { try $0.query("SELECT owner FROM outbox_claims").first?.string("owner") })
        let holderBack = await PromiseExpectations.value(
            of: database.write { try holder.renew(at: clock.now, $0) })

        // Then
        #expect(seen == false && taken == true)
        #expect(owner == taker.owner)
        #expect(holderBack == false)
    }

    @Test(
        "two syncs following one file while a third connection saves 60 changes: each is sent once, at an API that ignores keys"
    )
    func twoFollowersSendEachChangeOnce() async throws {
        // Given: two "processes" syncing whenever asked, an API that would create a note twice
        let folder = TemporaryFolder("OutboxClaimTests")
        let processes = try Self.processes(3, in: folder)
        let received = Received()
        let api = try TestHTTPServer(responder: { request in
            received.append(String(decoding: request.body, as: UTF8.self))
            return .status(201, body: #"{"id": "srv"}"#)
        })
        defer { api.stop() }
        let client = APIClient(baseURL: api.baseURL, timeout: 30)

        // When: each save is followed by a sync of both, not waited for, as two watches do
        var syncs: [Promise<OutboxSyncReport>] = []
        for index in 0..<60 {
            await OutboxTests.write(
                processes[2].0, processes[2].1, .post, id: "n\(index)", text: "note \(index)")
            syncs.append(processes[0].1.sync(with: client) { _, _, _ in nil })
            syncs.append(processes[1].1.sync(with: client) { _, _, _ in nil })
        }
        for sync in syncs { _ = await PromiseExpectations.value(of: sync) }
        let last = await PromiseExpectations.value(of: processes[0].1.sync(with: client) { _, _, _ in nil })

        // Then
        #expect(last?.waiting == 0)
        #expect(received.lines.count == 60)
        #expect(Set(received.lines).count == 60)
    }

    @Test(
        "a next attempt written while the clock was ten years ahead is capped by its wait once the clock is right"
    )
    func waitCappedWhenRead() async throws {
        // Given: a change that failed (500) while the clock was ten years ahead: 1 s of backoff
        let clock = TestClock()
        let (database, outbox) = try OutboxTests.notes(clock: clock)
        await OutboxTests.write(database, outbox, .put, id: "a")
        let status = Locked(500)
        let api = try TestHTTPServer(responder: { _ in .status(status.withLock { $0 }, body: "{}") })
        defer { api.stop() }
        let client = APIClient(baseURL: api.baseURL, timeout: 30, retry: .never)
        let tenYears: TimeInterval = 10 * 365 * 86_400
        clock.advance(tenYears)
        _ = await PromiseExpectations.value(of: outbox.sync(with: client) { _, _, _ in nil })
        clock.advance(-tenYears)
        status.withLock { $0 = 200 }

        // When
        let corrected = await PromiseExpectations.value(of: outbox.sync(with: client) { _, _, _ in nil })
        clock.advance(1)
        let after = await PromiseExpectations.value(of: outbox.sync(with: client) { _, _, _ in nil })

        // Then: waits its 1 s from now, not ten years
        #expect(
            corrected?.retryAt.map { $0 <= clock.now } == true, "\(String(describing: corrected?.retryAt))")
        #expect(after?.sent.map(\.localID) == ["a"])
    }
}

extension OutboxClaimTests {
    @Test("the claim records the holder read when it was made: nothing is looked up in the transaction")
    func holderReadOutsideTheTransaction() async throws {
        // Given: a claim made with its holder already read
        let (database, outbox) = try OutboxTests.notes()
        _ = await PromiseExpectations.value(of: outbox.ready)
        var made = OutboxClaim(feature: "notes", lease: 35)
        made.holder = ClaimHolder(pid: 4_242, host: "read-before")
        let claim = made

        // When
        _ = await PromiseExpectations.value(of: database.write { try claim.renew(at: Date(), $0) })
        let row = await PromiseExpectations.value(
            of: database.read { try $0.query("SELECT pid, host FROM outbox_claims").first })

        // Then
        #expect(try row??.int("pid") == 4_242)
        #expect(try row??.string("host") == "read-before")
    }

    @Test("this machine's name is gethostname's, as Foundation reads it on Linux, with no lookup")
    func machineNameIsGethostname() {
        #expect(!ClaimHolder.machineName().isEmpty)
        #if os(Linux)
            #expect(ClaimHolder.machineName() == ProcessInfo.processInfo.hostName)
        #endif
    }
}
