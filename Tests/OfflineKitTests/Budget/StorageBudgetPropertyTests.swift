import Foundation
import PromiseMVPTesting
import Testing

@testable import OfflineKit
@testable import Services

/// `StorageBudget` against random work: creates, edits and deletes made offline, listings and
/// syncs online, pins, and eviction passes under a budget smaller than the collection. After
/// every pass nothing that waits or is pinned is gone; at the end, every change reached the API
/// once.
@Suite("Storage budget, random work")
struct StorageBudgetPropertyTests {
    typealias Task = OfflineCollectionTests.Task
    typealias Fixture = StorageBudgetTests.Fixture

    /// A generator that gives the same numbers for the same seed (SplitMix64).
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// One step of the work.
    enum Step: CaseIterable {
        case create, edit, delete, list, sync, evict, pin, unpin
    }

    @Test(
        "after every eviction what waits or is pinned is still here; at the end each change reached the API once",
        arguments: [1, 2, 3] as [UInt64])
    func nothingThatWaitsIsLost(seed: UInt64) async throws {
        // Given: ten tasks at the API, and a budget of about three of them
        let fixture = try Fixture()
        defer { fixture.server.stop() }
        var random = SeededGenerator(state: seed)
        let tasks = fixture.tasks
        _ = await PromiseExpectations.value(of: tasks.list())
        let budget = StorageBudget(database: fixture.database, bytes: await fixture.used() * 3 / 10)
        var expected = Set((1...10).map { "Task number \($0), with some words" })
        var (made, evicted) = (0, 0)

        // When: sixty random steps
        for _ in 0..<60 {
            let shown =
                await PromiseExpectations.value(of: tasks.list(policy: .cacheOnly))?.value.values ?? []
            let step = Step.allCases.randomElement(using: &random) ?? .list
            made += 1
            switch step {
            case .create:
                fixture.connectivity.set(.unreachable)
                _ = await PromiseExpectations.value(of: tasks.create(Task(title: "made \(made)")))
                expected.insert("made \(made)")
            case .edit:
                guard var task = shown.randomElement(using: &random) else { continue }
                fixture.connectivity.set(.unreachable)
                expected.remove(task.title)
                task.title = "edited \(made)"
                _ = await PromiseExpectations.value(of: tasks.update(task))
                expected.insert(task.title)
            case .delete:
                guard let task = shown.randomElement(using: &random), let id = task.id else { continue }
                fixture.connectivity.set(.unreachable)
                _ = await PromiseExpectations.value(of: tasks.delete(id: id))
                expected.remove(task.title)
            case .list:
                fixture.connectivity.set(.reachable)
                _ = await PromiseExpectations.value(of: tasks.list())
            case .sync:
                fixture.connectivity.set(.reachable)
                _ = await PromiseExpectations.value(of: tasks.sync())
            case .pin, .unpin:
                guard let id = shown.randomElement(using: &random)?.id else { continue }
                _ = await PromiseExpectations.value(
                    of: step == .pin ? tasks.pin(id: id) : tasks.unpin(id: id))
            case .evict:
                let waiting = await PromiseExpectations.value(of: tasks.outbox.diagnostics())?.changes ?? []
                let pinned = await PromiseExpectations.value(of: tasks.pinnedIDs()) ?? []
                let before = Set(await fixture.stored())
                evicted += await PromiseExpectations.value(of: budget.enforce())?.evicted ?? 0
                let after = Set(await fixture.stored())

                // Then (each pass): every row a change waits on, and every pinned row, stayed
                for change in waiting {
                    let ids = Set([change.localID] + (change.apiID.map { [$0] } ?? []))
                    #expect(
                        !ids.isDisjoint(with: after),
                        "step \(made): \(change.localID) waits and was let go of")
                }
                #expect(
                    before.intersection(pinned).isSubset(of: after),
                    "step \(made): a pinned row was let go of")
            }
        }

        // Then: online, one sync sends the rest, and the API holds every change once
        fixture.connectivity.set(.reachable)
        let report = await PromiseExpectations.value(of: tasks.sync())
        let titles = fixture.api.resources(as: Task.self).map(\.title)
        #expect(report != nil)
        #expect(evicted > 0, "no pass let go of anything: the budget was never tried")
        #expect(titles.count == Set(titles).count, "a change reached the API twice: \(titles.sorted())")
        #expect(Set(titles) == expected)
        #expect(await PromiseExpectations.value(of: tasks.outbox.diagnostics())?.changes.isEmpty == true)
    }
}
