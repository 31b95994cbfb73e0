import Dispatch
import Foundation
import PromiseMVPTestServer
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// A sync in flight when the app's database is suspended (`Database.suspend()`): it stops at its
/// next write, and nothing it sent is lost or applied twice.
@Suite("Outbox suspension")
struct OutboxSuspensionTests {
    @Test("a sync in flight at suspension stops, loses nothing, and after resume each change is applied once")
    func syncInFlightStops() async throws {
        // Given: three notes waiting, sent one at a time; the API holds the first answer back
        let (database, outbox) = try OutboxTests.notes()
        let api = TestResourceAPI(collection: "notes")
        let (arrived, answer) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let held = Locked(true)
        let server = try TestHTTPServer { request in
            let reply = api.respond(request)
            if held.withLock({ held in
                defer { held = false }
                return held
            }) {
                arrived.signal()
                _ = answer.wait(timeout: .now() + 900)
            }
            return reply
        }
        defer { server.stop() }
        for id in ["a", "b", "c"] { await OutboxTests.write(database, outbox, .post, id: id) }
        var sending = outbox
        sending.changesInFlight = 1
        let client = APIClient(baseURL: server.baseURL, timeout: 900, retry: .never)
        let sync = sending.sync(with: client) { _, _, _ in nil }
        try #require(await BlockingWork.run { arrived.wait(timeout: .now() + 900) == .success })

        // When: the app is suspended while the first change's answer is on its way, then resumed
        let suspended = database.suspend()
        answer.signal()
        await suspended.value
        let stopped = await PromiseExpectations.error(of: sync)
        database.resume()
        let again = await PromiseExpectations.value(of: sending.sync(with: client) { _, _, _ in nil })

        // Then: the first sync stopped, saying the database is suspended; the next sent the first
        // again (same key, applied once) and the two others; nothing waits
        guard case .storageFailed(let reason)? = stopped as? ServiceRequestError else {
            Issue.record("the sync did not stop as suspended: \(String(describing: stopped))")
            return
        }
        #expect(reason.contains("suspended"))
        #expect(again?.sent.count == 3 && again?.waiting == 0)
        #expect(api.applied == ["POST /notes", "POST /notes", "POST /notes"])
        #expect(api.writes.count == 3 && Set(api.writes.map(\.key)).count == 3)
        #expect(await PromiseExpectations.value(of: outbox.entries())?.isEmpty == true)
    }
}
