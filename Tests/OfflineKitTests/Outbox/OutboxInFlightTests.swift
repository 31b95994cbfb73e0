import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// Several changes in flight (`Outbox.changesInFlight`): only changes with no reason to wait for
/// each other go together, each once, and a failure stops new sends while those in flight finish.
@Suite("Outbox: changes in flight")
struct OutboxInFlightTests {
    /// What a loopback API saw at once: how many requests, and how many of one path.
    ///
    /// `@unchecked Sendable` is sound: every stored property is read and written only while
    /// holding `condition`'s lock.
    final class Overlaps: @unchecked Sendable {
        private let condition = NSCondition()
        private var open: [String: Int] = [:]
        private var seen = 0
        private var mostAtOnce = 0
        private var mostOfOnePath = 0
        private var released = false
        /// Requests after the first wait until this many are in flight at once (or 20 s pass).
        let gather: Int

        init(gather: Int) {
            self.gather = gather
        }

        /// The most requests in flight at once, and the most of one path.
        var most: (atOnce: Int, ofOnePath: Int) { condition.withLock { (mostAtOnce, mostOfOnePath) } }

        /// Counts `request` in flight while `answer` makes its answer. The first request goes
        /// alone (a sync starts with one); the others are held until `gather` are in flight
        /// together, then all go: a sync that sent one at a time would never gather them.
        func serve(_ request: TestHTTPServer.Request, _ answer: () -> TestHTTPServer.Reply)
            -> TestHTTPServer.Reply
        {
            condition.withLock {
                seen += 1
                open[request.path, default: 0] += 1
                let atOnce = open.values.reduce(0, +)
                mostAtOnce = max(mostAtOnce, atOnce)
                mostOfOnePath = max(mostOfOnePath, open[request.path] ?? 0)
                if atOnce >= gather { released = true }
                condition.broadcast()
                if seen > 1 {
                    let deadline = Date().addingTimeInterval(20)
                    while !released, condition.wait(until: deadline) {}
                }
            }
            let reply = answer()
            condition.withLock { open[request.path, default: 1] -= 1 }
            return reply
        }
    }

    /// A client whose timeouts only a hang reaches (``OutboxDevice/patientClient(_:)``).
    func client(_ server: TestHTTPServer) -> APIClient {
        OutboxDevice.patientClient(server)
    }

    /// Given: the notes `ids` each changed once, three sent at once, and an API that gathers three
    /// requests in flight and answers `503` to the notes `failing` names, `200` to the others.
    func threeInFlight(_ ids: [String], failing: @escaping @Sendable (String) -> Bool) async throws -> (
        outbox: Outbox, server: TestHTTPServer, overlaps: Overlaps
    ) {
        var (database, outbox) = try OutboxTests.notes()
        outbox.changesInFlight = 3
        let overlaps = Overlaps(gather: 3)
        let server = try TestHTTPServer { request in
            overlaps.serve(request) {
                failing(String(request.path.dropFirst("/notes/".count)))
                    ? .status(503, body: "{}") : .status(200, body: "{}")
            }
        }
        for id in ids { await OutboxTests.write(database, outbox, .put, id: id) }
        return (outbox, server, overlaps)
    }

    @Test(
        "six notes with two changes each: six go at once, never two of one note, each once, reported in order"
    )
    func sixAtOnceNeverTwoOfOne() async throws {
        // Given: two changes of each of six notes (the first of each sent once already, so the
        // second is not merged into it)
        let (database, outbox) = try OutboxTests.notes()
        let overlaps = Overlaps(gather: 6)
        let server = try TestHTTPServer { request in overlaps.serve(request) { .status(200, body: "{}") } }
        defer { server.stop() }
        let notes = ["a", "b", "c", "d", "e", "f"]
        for id in notes { await OutboxTests.write(database, outbox, .put, id: id, mayHaveArrived: true) }
        for id in notes { await OutboxTests.write(database, outbox, .put, id: id, text: "again") }

        // When
        let report = await PromiseExpectations.value(of: outbox.sync(with: client(server)) { _, _, _ in nil })

        // Then
        #expect(overlaps.most.atOnce == 6)
        #expect(overlaps.most.ofOnePath == 1)
        #expect(server.requests.count == 12)
        #expect(report?.sent.map(\.localID) == notes + notes)
        #expect(report?.sent.map(\.sequence) == report?.sent.map(\.sequence).sorted())
        #expect(report?.waiting == 0)
    }

    @Test("one at a time when asked: changesInFlight 1 never has two requests open")
    func oneAtATime() async throws {
        // Given
        var (database, outbox) = try OutboxTests.notes()
        outbox.changesInFlight = 1
        let overlaps = Overlaps(gather: 1)
        let server = try TestHTTPServer { request in overlaps.serve(request) { .status(200, body: "{}") } }
        defer { server.stop() }
        for id in ["a", "b", "c", "d"] { await OutboxTests.write(database, outbox, .put, id: id) }

        // When
        let report = await PromiseExpectations.value(of: outbox.sync(with: client(server)) { _, _, _ in nil })

        // Then
        #expect(report?.sent.count == 4)
        #expect(overlaps.most.atOnce == 1)
    }

    @Test("the API failing every change in flight: no new one is sent; each failed one is counted once")
    func failureStopsNewSends() async throws {
        // Given: a first change that goes, then a window of three the API fails, and three more
        let (outbox, server, overlaps) = try await threeInFlight(["a", "b", "c", "d", "e", "f", "g"]) {
            $0 != "a"
        }
        defer { server.stop() }

        // When
        let report = await PromiseExpectations.value(of: outbox.sync(with: client(server)) { _, _, _ in nil })
        let entries = await PromiseExpectations.value(of: outbox.entries()) ?? []

        // Then: a sent; b, c, d tried once each, together; e, f, g never asked
        #expect(report?.sent.map(\.localID) == ["a"])
        #expect(report?.stoppedBecause == .httpStatus(503))
        #expect(overlaps.most.atOnce == 3)
        #expect(Set(server.requests) == Set(["a", "b", "c", "d"].map { "PUT /notes/\($0) HTTP/1.1" }))
        #expect(server.requests.count == 4)
        #expect(entries.map(\.localID) == ["b", "c", "d", "e", "f", "g"])
        #expect(entries.map(\.failures) == [1, 1, 1, 0, 0, 0])
    }

    @Test(
        "a failure beside changes that succeed: those in flight finish and are recorded, the failed one waits"
    )
    func inFlightFinishAfterAFailure() async throws {
        // Given
        let (outbox, server, _) = try await threeInFlight(["a", "b", "c", "d"]) { $0 == "b" }
        defer { server.stop() }

        // When
        let report = await PromiseExpectations.value(of: outbox.sync(with: client(server)) { _, _, _ in nil })
        let entries = await PromiseExpectations.value(of: outbox.entries()) ?? []

        // Then
        #expect(report?.sent.map(\.localID) == ["a", "c", "d"])
        #expect(report?.stoppedBecause == .httpStatus(503) && report?.waiting == 1)
        #expect(entries.map(\.localID) == ["b"] && entries.first?.failures == 1)
        #expect(server.requests.count == 4)
    }

    @Test("a sync cancelled with a change in flight sends no other: it is recorded, the rest wait untried")
    func cancelStopsNewSends() async throws {
        // Given: three notes, and an API that holds the first request until the test lets it go
        let (database, outbox) = try OutboxTests.notes()
        for id in ["a", "b", "c"] { await OutboxTests.write(database, outbox, .put, id: id) }
        let (arrived, arrival) = Promise<Void>.pending()
        let release = DispatchSemaphore(value: 0)
        let server = try TestHTTPServer { request in
            if request.path == "/notes/a" {
                arrival.fulfill(())
                release.wait()
            }
            return .status(200, body: "{}")
        }
        defer { server.stop() }
        // However the test ends, the held answer is let go, and the server can stop.
        defer { release.signal() }
        let (recorded, record) = Promise<Void>.pending()
        let sync = outbox.sync(with: client(server)) { entry, _, _ in
            if entry.localID == "a" { record.fulfill(()) }
            return nil
        }

        // When: cancelled while `a` is in flight; then `a` is answered
        _ = await PromiseExpectations.value(of: arrived)
        sync.cancel()
        release.signal()
        _ = await PromiseExpectations.value(of: recorded)
        // A write goes after the transaction that recorded `a` (and would have marked the next).
        let tried = await PromiseExpectations.value(
            of: database.write { connection in
                try connection.query("SELECT local_id, attempted FROM outbox ORDER BY sequence").map {
                    "\(try $0.string("local_id")) \(try $0.int("attempted"))"
                }
            })

        // Then
        let error = await PromiseExpectations.error(of: sync)
        #expect(error.map { ($0 as? ServiceRequestError) == .cancelled || $0.isCancellation } == true)
        #expect(tried == ["b 0", "c 0"])
        #expect(server.requests == ["PUT /notes/a HTTP/1.1"])
    }
}
