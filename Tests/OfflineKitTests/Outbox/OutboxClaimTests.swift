import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// One sync sends at a time per file, across processes (`OutboxClaim.swift`): an app and its
/// extensions open the same file, each with its own connection, as these tests do.
@Suite("Outbox: one sync per file")
struct OutboxClaimTests {
    /// `count` connections to one file, each with the `notes` outbox.
    static func processes(_ count: Int, in folder: TemporaryFolder) throws -> [(Database, Outbox)] {
        let path = folder.file("shared.sqlite")
        return try (0..<count).map { _ in
            let database = try Database(
                at: path,
                migrations: [
                    Migration(version: 1, sql: "CREATE TABLE notes (id TEXT PRIMARY KEY, text TEXT NOT NULL)")
                ])
            return (database, Outbox(database: database, feature: "notes", retry: OutboxTests.steadyRetry))
        }
    }

    @Test(
        "three syncs of one file at once, against an API that ignores Idempotency-Key: each change is sent once"
    )
    func threeSyncsSendEachChangeOnce() async throws {
        // Given: 30 notes created offline, and an API that would create a note twice if asked twice
        let folder = TemporaryFolder("OutboxClaimTests")
        let processes = try Self.processes(3, in: folder)
        for index in 0..<30 {
            await OutboxTests.write(
                processes[0].0, processes[0].1, .post, id: "n\(index)", text: "note \(index)")
        }
        let received = Received()
        let api = try TestHTTPServer(responder: { request in
            received.append(String(decoding: request.body, as: UTF8.self))
            return .status(201, body: #"{"id": "srv"}"#)
        })
        defer { api.stop() }
        let client = APIClient(baseURL: api.baseURL, timeout: 30)

        // When: the three sync at the same time, then one more sync sends what is left
        let reports = await withTaskGroup(of: OutboxSyncReport?.self) { group in
            for (_, outbox) in processes {
                group.addTask {
                    await PromiseExpectations.value(of: outbox.sync(with: client) { _, _, _ in nil })
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let last = await PromiseExpectations.value(of: processes[1].1.sync(with: client) { _, _, _ in nil })

        // Then: every note reached the API exactly once
        #expect(received.lines.count == 30)
        #expect(Set(received.lines).count == 30)
        #expect(last?.waiting == 0)
        #expect(reports.compactMap { $0 }.map(\.sent.count).reduce(0, +) + (last?.sent.count ?? 0) == 30)
    }

    @Test("a claim whose holder stopped renewing is taken once its beat stood still a lease")
    func lapsedClaimIsTaken() async throws {
        // Given: a claim left by a process killed mid-sync, and one change waiting
        let clock = TestClock()
        let (database, outbox) = try OutboxTests.notes(clock: clock)
        await OutboxTests.write(database, outbox, .put, id: "a")
        let dead = OutboxClaim(feature: "notes", lease: 35)
        #expect(
            await PromiseExpectations.value(of: database.write { try dead.renew(at: clock.now, $0) }) == true)
        let api = try TestHTTPServer(responder: { _ in .status(200, body: "{}") })
        defer { api.stop() }
        let client = APIClient(baseURL: api.baseURL, timeout: 30)

        // When: a sync while the claim holds, and one after its beat stood still for this sync's
        // lease (the client's timeout and 30 s: 60 s)
        let during = await PromiseExpectations.value(of: outbox.sync(with: client) { _, _, _ in nil })
        clock.advance(61)
        let after = await PromiseExpectations.value(of: outbox.sync(with: client) { _, _, _ in nil })

        // Then
        #expect(during?.sendingElsewhere == true && during?.sent.isEmpty == true && during?.waiting == 1)
        #expect(api.requests.count == 1)
        #expect(after?.sent.map(\.localID) == ["a"], "\(String(describing: after))")
    }

    /// Syncs one waiting change of a `notes` outbox whose file holds a claim of process `pid` on
    /// `host` (this machine by default), far from lapsing; gives the report and the requests the API received.
    static func syncPastClaim(of pid: Int64, on host: String = ClaimHolder.current.host) async throws -> (
        OutboxSyncReport?, [String]
    ) {
        let clock = TestClock()
        let (database, outbox) = try OutboxTests.notes(clock: clock)
        await OutboxTests.write(database, outbox, .put, id: "a")
        _ = await PromiseExpectations.value(of: outbox.ready)
        try await leaveClaim(in: database, pid: pid, host: host, expires: clock.now + 3600)
        let api = try TestHTTPServer(responder: { _ in .status(200, body: "{}") })
        defer { api.stop() }
        let report = await PromiseExpectations.value(
            of: outbox.sync(with: APIClient(baseURL: api.baseURL, timeout: 30)) { _, _, _ in nil })
        return (report, api.requests)
    }

    @Test("a claim left by a process that no longer runs on this machine is taken at once")
    func claimOfEndedProcessIsTaken() async throws {
        // Given / When: a claim of a process number no process has
        let (report, _) = try await Self.syncPastClaim(of: Int64(Int32.max - 1))

        // Then
        #expect(report?.sendingElsewhere == false)
        #expect(report?.sent.map(\.localID) == ["a"])
    }

    @Test("a claim of another machine's process holds, whatever its number: only its beat tells it stopped")
    func claimOfAnotherMachineHolds() async throws {
        // Given / When: a claim of a process number no process here has, on another machine
        let (report, requests) = try await Self.syncPastClaim(of: Int64(Int32.max - 1), on: "another-machine")

        // Then
        #expect(report?.sendingElsewhere == true)
        #expect(requests.isEmpty)
    }

    @Test("a claim of a process that runs on this machine (this one) holds")
    func claimOfRunningProcessHolds() async throws {
        // Given / When: a claim of this process
        let (report, requests) = try await Self.syncPastClaim(of: ClaimHolder.current.pid)

        // Then
        #expect(report?.sendingElsewhere == true)
        #expect(requests.isEmpty)
    }

    @Test("a claim taken is shown in the outbox's diagnostics: this process, its lease from now")
    func claimShownInDiagnostics() async throws {
        // Given: the notes outbox, and a claim this process takes with a lease of 90 s
        let folder = TemporaryFolder("OutboxClaimTests")
        let (database, outbox) = try #require(try Self.processes(1, in: folder).first)
        _ = await PromiseExpectations.value(of: outbox.diagnostics())
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let claim = OutboxClaim(feature: "notes", lease: 90)

        // When
        let taken = await PromiseExpectations.value(of: database.write { try claim.renew(at: now, $0) })
        let shown = await PromiseExpectations.value(of: outbox.diagnostics())

        // Then
        #expect(taken == true)
        #expect(
            shown?.claim
                == OutboxDiagnostics.Claim(
                    pid: Int64(getpid()), host: ClaimHolder.current.host,
                    expires: now + 90))
    }

    @Test("a hand-off while another live sync holds the claim hands nothing off, and says so")
    func handOffPastALiveClaim() async throws {
        // Given: a waiting change, a spool, and a claim this machine's running process holds
        let folder = TemporaryFolder("OutboxClaimTests")
        let clock = TestClock()
        let (database, outbox) = try await Self.changeToHandOff(spooledIn: folder, clock: clock)
        _ = await PromiseExpectations.value(of: outbox.ready)
        try await Self.leaveClaim(
            in: database, pid: Int64(getpid()), host: ClaimHolder.current.host, expires: clock.now + 3600)
        let client = APIClient(baseURL: try #require(URL(string: "http://127.0.0.1:9")), timeout: 30)

        // When
        let report = await PromiseExpectations.value(of: outbox.handOff(with: client))

        // Then
        #expect(report?.sendingElsewhere == true && report?.handedOff.isEmpty == true)
        #expect(outbox.transferSpool?.all().isEmpty == true)
    }

    @Test("a hand-off holds the claim while it writes, for the client's timeout and 30 s, as a sync does")
    func handOffHoldsTheClaimForItsLease() async throws {
        // Given: a waiting change, a spool, and credentials whose token comes when the test says
        let folder = TemporaryFolder("OutboxClaimTests")
        let clock = TestClock()
        let (_, outbox) = try await Self.changeToHandOff(spooledIn: folder, clock: clock)
        let token = HeldToken()
        let client = try Self.closedPortClient(signedBy: token)

        // When: the hand-off picked the change and waits for the token to sign its request
        let handOff = outbox.handOff(with: client)
        _ = await PromiseExpectations.value(of: token.asked)
        let during = await PromiseExpectations.value(of: outbox.diagnostics())
        token.give("t")
        let report = await PromiseExpectations.value(of: handOff)
        let after = await PromiseExpectations.value(of: outbox.diagnostics())

        // Then: claimed by this process until the lease ends; given up once written
        #expect(during?.claim?.expires == clock.now + 60, "\(String(describing: during?.claim))")
        #expect(during?.claim?.pid == Int64(getpid()))
        #expect(report?.handedOff.map(\.localID) == ["a"])
        #expect(after.map { $0.claim == nil } == true)
    }

    @Test("a hand-off that fails before it gives its claim up leaves it to this process's next sync, at once")
    func failedHandOffLeavesItsClaim() async throws {
        // Given: a hand-off holding the claim, waiting for its token
        let folder = TemporaryFolder("OutboxClaimTests")
        let clock = TestClock()
        let (database, outbox) = try await Self.changeToHandOff(spooledIn: folder, clock: clock)
        let token = HeldToken()
        let handOff = outbox.handOff(with: try Self.closedPortClient(signedBy: token))
        _ = await PromiseExpectations.value(of: token.asked)

        // When: the database is suspended before the hand-off's last writes (its claim stays in
        // the file), then resumed; a change is made, and this process syncs before the lease ends
        _ = await PromiseExpectations.value(of: database.suspend().asPromise())
        token.give("t")
        let failure = await PromiseExpectations.error(of: handOff)
        database.resume()
        await OutboxTests.write(database, outbox, .put, id: "b")
        let api = try TestHTTPServer(responder: { _ in .status(200, body: "{}") })
        defer { api.stop() }
        let next = await PromiseExpectations.value(
            of: outbox.sync(with: APIClient(baseURL: api.baseURL, timeout: 30)) { _, _, _ in nil })

        // Then: the claim left behind was this process's failed run's: taken at once, and the
        // change made since sent
        #expect(failure != nil)
        #expect(next?.sendingElsewhere == false, "\(String(describing: next))")
        #expect(next?.sent.map(\.localID) == ["b"])
    }

    /// Given: the note `a` edited, and an outbox that hands its changes off to a spool in `folder`.
    static func changeToHandOff(spooledIn folder: TemporaryFolder, clock: TestClock) async throws -> (
        Database, Outbox
    ) {
        var (database, outbox) = try OutboxTests.notes(clock: clock)
        outbox.transferSpool = TransferSpool(folder: folder.file("Transfers"))
        await OutboxTests.write(database, outbox, .put, id: "a")
        return (database, outbox)
    }

    /// A client of a port nobody listens on, its requests signed by `token` once it gives one.
    static func closedPortClient(signedBy token: HeldToken) throws -> APIClient {
        APIClient(baseURL: try #require(URL(string: "http://127.0.0.1:9")), timeout: 30).authorized(by: token)
    }

    /// Credentials whose token waits until the test gives it: what signs a request is asked once
    /// the outbox has claimed the file and picked the change.
    final class HeldToken: Credentials {
        let account: String? = "amy"
        private let askedFor = Promise<Void>.pending()
        private let token = Promise<String>.pending()
        /// Fulfilled once a token was asked for.
        var asked: Promise<Void> { askedFor.promise }

        func accessToken() -> Promise<String> {
            askedFor.seal.fulfill(())
            return token.promise
        }

        func refresh(replacing token: String) -> Promise<String> { self.token.promise }

        /// Gives the token every request waiting for it.
        func give(_ value: String) { token.seal.fulfill(value) }
    }

    /// Writes the claim another sync would have left.
    static func leaveClaim(in database: Database, pid: Int64, host: String, expires: Date) async throws {
        let written = await PromiseExpectations.value(
            of: database.write { connection in
                try connection.execute(
                    "INSERT INTO outbox_claims (feature, owner, expires, pid, host) VALUES ('notes', 'other', ?, ?, ?)",
                    [.real(expires.timeIntervalSince1970), .integer(pid), .text(host)])
            })
        #expect(written == 1)
    }
}
