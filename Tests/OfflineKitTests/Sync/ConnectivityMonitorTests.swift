import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// One `ConnectivityMonitor` serves a collection (asked before each request) and the scheduler
/// (followed for changes).
@Suite("ConnectivityMonitor")
struct ConnectivityMonitorTests {
    typealias Task = OfflineCollectionTests.Task
    let folder = TemporaryFolder("ConnectivityMonitorTests")
    let api = TestResourceAPI(collection: "tasks", resources: [["id": "t1", "title": "Milk"]])

    @Test(
        "one monitor: off, a write is queued without a request and nothing syncs; on, the scheduler sends it")
    func oneMonitorServesCollectionAndScheduler() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let connectivity = ManualConnectivity(.unreachable)
        let tasks = OfflineCollection<Task>(
            database: try Database(at: folder.file("tasks.sqlite")), collection: "tasks",
            client: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never), reachability: connectivity
        )
        let scheduler = SyncScheduler(connectivity: connectivity, clock: TestClock()) { tasks.sync() }
        scheduler.follow(tasks.outbox)
        let states = DeliveryRecorder<SyncSchedulerState>()
        let observation = scheduler.observe(on: .inline) { states.record($0) }
        defer { observation.cancel() }
        scheduler.start()
        _ = await states.next { $0 == .offline }

        // When: created while the monitor says unreachable
        let created = await PromiseExpectations.value(of: tasks.create(Task(title: "Eggs")))
        let requestsWhileOff = server.requests.count

        // Then: kept here, no request made
        #expect(created?.id?.hasPrefix("local-") == true)
        #expect(requestsWhileOff == 0)

        // When: the monitor says reachable
        connectivity.set(.reachable)

        // Then: the scheduler sends it
        _ = await states.next { $0 == .syncing }
        _ = await states.next { $0 == .idle }
        #expect(api.applied == ["POST /tasks"])
        #expect(connectivity.isReachable)
        _ = await PromiseExpectations.value(of: scheduler.stop())
    }

    @Test("the default monitor is always tried and reports nothing; an APIProbe is unreachable while it asks")
    func defaultsAndProbe() {
        // Given
        let probe = APIProbe(clock: TestClock()) { Promise(error: URLError(.notConnectedToInternet)) }
        probe.start { _ in }

        // When
        let before = probe.isReachable
        probe.syncFoundUnreachable()

        // Then
        #expect(AssumeReachable().isReachable && before)
        #expect(!probe.isReachable)
        probe.stop()
    }
}
