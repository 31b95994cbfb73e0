import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// Two devices make random creates, updates and deletes of a few shared notes, syncing now and
/// then, against an API that fails or loses the answer of a third of the requests. Afterwards,
/// with the API well again and both synced: every change is on the API, or held on its device as
/// a conflict (with the API's copy) or a refusal; no update or delete was applied without
/// `If-Match`; nothing waits in limbo.
///
/// Seeded: `TWO_DEVICES_SEED` picks the seed, `TWO_DEVICES_ROUNDS` the rounds (60 by default, a
/// few seconds; raise it for a longer run).
@Suite("Outbox: two devices, at random")
struct TwoDevicesRandomTests {
    /// Fails a third of the requests: half of those before doing anything (503), half after
    /// applying them (the connection reset: the answer lost).
    final class Flaky: @unchecked Sendable {
        // `@unchecked Sendable` is sound: `generator` and `failing` are only touched under `lock`.
        private let lock = NSLock()
        private var generator: SeededGenerator
        private var failing = true
        let api: TestResourceAPI

        init(_ api: TestResourceAPI, seed: UInt64) {
            self.api = api
            generator = SeededGenerator(seed: seed ^ 0xF1A4)
        }

        func heal() { lock.withLock { failing = false } }

        func respond(_ request: TestHTTPServer.Request) -> TestHTTPServer.Reply {
            let roll = lock.withLock { failing ? Int.random(in: 0..<6, using: &generator) : 5 }
            if roll == 0 { return .status(503, body: #"{"error": "busy"}"#) }
            let reply = api.respond(request)
            return roll == 1 ? .reset : reply
        }
    }

    @Test("every change is on the API or held as a conflict or refusal; nothing overwritten without If-Match")
    func randomRun() async throws {
        // Given
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["TWO_DEVICES_SEED"].flatMap(UInt64.init) ?? 20_261_123
        let rounds = environment["TWO_DEVICES_ROUNDS"].flatMap(Int.init) ?? 60
        var random = SeededGenerator(seed: seed)
        let api = TestResourceAPI(
            collection: "notes",
            resources: (1...3).map { ["id": "n\($0)", "title": "title \($0)", "text": "text \($0)"] })
        let flaky = Flaky(api, seed: seed)
        let server = try TestHTTPServer(responder: flaky.respond)
        defer { server.stop() }
        let folder = TemporaryFolder("TwoDevicesRandomTests")
        let devices = [try OutboxDevice(folder, "phone", server), try OutboxDevice(folder, "laptop", server)]
        for device in devices { await device.pull() }
        // What each device recorded: the key that carries each change, what it was, and the
        // resource; a change merged into another carries that one's key.
        var recorded: [(device: Int, key: String, what: String, id: String)] = []
        // The last request each key stands for (a change merged into a delete is that delete).
        var lastMethod: [String: HTTPMethod] = [:]

        // When: random changes, and syncs now and then
        for round in 0..<rounds {
            let index = Int.random(in: 0..<2, using: &random)
            let device = devices[index]
            let ids = await device.ids()
            let roll = Int.random(in: 0..<10, using: &random)
            let outcome: Outbox.Recorded?
            let id: String
            switch roll {
            case 0:
                id = "local-\(index)-\(round)"
                outcome = await device.create(id, ["title": "new \(round)", "text": "r\(round)"])
            case 1 where !ids.isEmpty:
                id = ids[Int.random(in: 0..<ids.count, using: &random)]
                outcome = await device.delete(id)
            case 2...6 where !ids.isEmpty:
                let field = Bool.random(using: &random) ? "title" : "text"
                id = ids[Int.random(in: 0..<ids.count, using: &random)]
                outcome = await device.edit(id, [field: "d\(index) r\(round)"])
            default:
                id = ""
                outcome = nil
                _ = await device.sync()
            }
            switch outcome {
            case .cancelledOut?:
                // A create and a delete that never left the device: neither is owed to the API.
                recorded.removeAll { $0.device == index && $0.id == id }
            case let outcome?:
                if let entry = outcome.entry {
                    recorded.append((index, entry.idempotencyKey, "round \(round) roll \(roll)", id))
                    lastMethod[entry.idempotencyKey] = entry.method
                }
            case nil:
                break
            }
        }
        flaky.heal()
        for _ in 0..<3 {
            for device in devices { _ = await device.sync() }
        }

        // Then
        var lost: [String] = []
        var held = 0
        for (index, device) in devices.enumerated() {
            let entries = await PromiseExpectations.value(of: device.outbox.entries()) ?? []
            // Held: a refused, stuck or conflicted change, and the changes of its resource behind it.
            let heldIDs = Set(entries.filter(\.isHeld).map(\.localID))
            let shown = entries.filter { $0.isHeld || heldIDs.contains($0.localID) }
            let shownKeys = Set(shown.map(\.idempotencyKey))
            held += entries.filter(\.isHeld).count
            let waiting = entries.filter { !shownKeys.contains($0.idempotencyKey) }
            #expect(waiting.isEmpty, "device \(index) still has changes waiting: \(waiting)")
            for entry in entries {
                if case .conflicted(let theirs, let deleted) = entry.state {
                    #expect(theirs != nil || deleted, "a conflict without the API's copy: \(entry)")
                }
            }
            for change in recorded where change.device == index {
                let applied = api.keysApplied.contains(change.key)
                // A delete of a note the API no longer has is done without being applied.
                let goneAnyway = lastMethod[change.key] == .delete && !api.ids.contains(change.id)
                if !applied && !shownKeys.contains(change.key) && !goneAnyway {
                    lost.append("device \(index) \(change.what) \(change.id) \(change.key)")
                }
            }
        }
        #expect(lost.isEmpty, "seed \(seed): lost \(lost)")
        #expect(api.unconditionalWritesApplied == 0, "seed \(seed): overwritten without If-Match")
        print(
            "two devices, seed \(seed): \(rounds) rounds, \(recorded.count) changes recorded, "
                + "\(api.keysApplied.count) applied, \(held) held, lost \(lost.count), "
                + "overwritten without a conflict shown \(api.unconditionalWritesApplied)")
    }
}
