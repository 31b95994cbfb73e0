import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// Other devices' changes pushed: events poke, the feed brings the data, bursts coalesce, and
/// polling becomes the safety net while the stream is live.
@Suite("Live refresh")
struct LiveRefreshTests {
    let folder = TemporaryFolder("LiveRefreshTests")

    /// A refresh the test settles by hand, counted as it starts.
    final class HeldRefresh: Sendable {
        let started = DeliveryRecorder<Int>()
        private let seals = Locked<[Seal<OfflineRefresh>]>([])

        func refresh() -> Promise<OfflineRefresh> {
            let (promise, seal) = Promise<OfflineRefresh>.pending()
            let count = seals.withLock { seals in
                seals.append(seal)
                return seals.count
            }
            started.record(count)
            return promise
        }

        /// Settles the refresh that started `number`-th.
        func finish(_ number: Int) {
            seals.withLock { $0[number - 1] }.fulfill(.unchanged)
        }
    }

    /// A stream that is never opened: for what does not need one.
    static func unopened() -> EventStream {
        EventStream(client: APIClient(baseURL: URL(fileURLWithPath: "/")), clock: TestClock())
    }

    @Test("a change made elsewhere reaches the copy through the feed, poked by the stream")
    func changeElsewhereArrives() async throws {
        // Given: the copy listed, and the stream open
        let api = TestResourceAPI(
            collection: "tasks",
            resources: [OfflineCollectionTests.Task(id: "t1", version: "1", title: "Paint")])
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
        let tasks = OfflineCollection<OfflineCollectionTests.Task>(
            database: try Database(at: folder.file("app.sqlite")), collection: "tasks", client: client
        ).followingChanges()
        _ = await PromiseExpectations.value(of: tasks.refresh())
        let titles = DeliveryRecorder<[String]>()
        let observation = tasks.observe(on: .inline) { result in
            if case .success(let snapshot) = result { titles.record(snapshot.values.map(\.title)) }
        }
        let live = LiveRefresh(
            stream: EventStream(client: client, clock: TestClock()), targets: [.collection(tasks)])
        let states = DeliveryRecorder<Bool>()
        let watching = live.observeLive { states.record($0) }
        live.start()
        #expect(await states.next() == true)

        // When: another device renames the task
        api.edit("t1", ["title": "Paint the fence"])

        // Then (waited for as long as a hang takes: a loaded run is slow, never stuck)
        #expect(await titles.next(timeout: 900) { $0 == ["Paint the fence"] } != nil)
        #expect(server.requests.contains { $0.hasPrefix("GET /tasks?since=") })
        live.stop()
        observation.cancel()
        watching.cancel()
    }

    @Test(
        "1,000 events while a refresh runs cost one more refresh after it, none beside it, half a second after"
    )
    func burstsCoalesce() async throws {
        // Given: a refresh running
        let (held, clock) = (HeldRefresh(), TestClock())
        let live = LiveRefresh(
            stream: Self.unopened(), targets: [LiveRefresh.Target(name: "orders") { held.refresh() }],
            clock: clock)
        live.received(ServerSentEvent(data: #"{"orders": "rev-1"}"#))
        #expect(await held.started.next() == 1)

        // When: a thousand events, then the refresh ends, then the spacing passes
        for revision in 2...1_001 { live.received(ServerSentEvent(data: #"{"orders": "rev-\#(revision)"}"#)) }
        let during = live.refreshesStarted
        held.finish(1)
        let beforeTheSpacing = live.refreshesStarted
        clock.advance(0.6)
        let second = await held.started.next()
        held.finish(2)
        let scheduledAfter = clock.wakeUps
        clock.advance(0.6)

        // Then: and once both ended, nothing more is scheduled or started
        #expect(during == 1)
        #expect(beforeTheSpacing == 1)
        #expect(second == 2)
        #expect(scheduledAfter.isEmpty)
        #expect(live.refreshesStarted == 2)
    }

    @Test("an event names collections by its keys, or an array; others, and text that is not JSON, name none")
    func namesInAnEvent() {
        #expect(
            LiveRefresh.collections(in: #"{"orders": "rev-2", "customers": "rev-9"}"#) == [
                "customers", "orders",
            ])
        #expect(LiveRefresh.collections(in: #"["orders"]"#) == ["orders"])
        #expect(LiveRefresh.collections(in: "orders").isEmpty)
        #expect(LiveRefresh.collections(in: #""orders""#).isEmpty)
    }

    @Test("a silent push refreshes what its payload names and says what came: new data, no data, failed")
    func silentPush() async {
        // Given
        let results = Locked<[String: Promise<OfflineRefresh>]>([
            "orders": .value(.applied(changes: 2, deletions: 0)), "customers": .value(.unchanged),
            "notes": Promise(error: APIError.httpStatus(500, body: "")),
        ])
        let targets = ["orders", "customers", "notes"].map { name in
            LiveRefresh.Target(name: name) { results.withLock { $0[name] ?? .value(.unchanged) } }
        }
        let live = LiveRefresh(stream: Self.unopened(), targets: targets)

        // When
        let newData = await live.refresh(forRemoteNotification: ["changes": ["orders": "rev-3"]]).value
        let noData = await live.refresh(forRemoteNotification: ["changes": ["customers": "rev-1"]]).value
        let failed = await live.refresh(forRemoteNotification: ["changes": ["notes": "rev-1"]]).value
        let unknown = await live.refresh(forRemoteNotification: ["aps": ["content-available": 1]]).value

        // Then
        #expect([newData, noData, failed, unknown] == [.newData, .noData, .failed, .noData])
    }

    @Test("while the stream is live, polling waits the safety net; down, the usual interval")
    func pollingIsTheSafetyNet() async throws {
        // Given: a scheduler refreshing every 30 s, its first sync and refresh done
        let (source, server, live) = try Self.liveRefresh()
        defer { server.stop() }
        let subject = ScheduledSync()
        let refreshes = RefreshCount()
        let handle = subject.scheduler.refresh(every: 30, pushedBy: live) { refreshes.refresh() }
        // Told after the scheduler, which watched first: its new plan is asked for by then.
        let states = DeliveryRecorder<Bool>()
        let watching = live.observeLive { states.record($0) }
        subject.scheduler.start()
        _ = await subject.reach { $0 == .syncing }
        subject.sync.finish()
        _ = await refreshes.started.next()
        _ = await subject.reach { $0 == .idle }
        await subject.decided()
        let down = subject.clock.wakeUps

        // When: the stream is live, then dropped (each state waited for as such: a slow run may
        // tell a flap on the way, and the plan read must follow the state the test means)
        live.start()
        _ = await states.next(timeout: 900, where: { $0 })
        await subject.decided()
        let up = subject.clock.wakeUps
        source.dropConnections()
        _ = await states.next(timeout: 900, where: { !$0 })
        await subject.decided()
        let downAgain = subject.clock.wakeUps

        // Then
        let start = subject.clock.now
        #expect(down == [start.addingTimeInterval(30)])
        #expect(up == [start.addingTimeInterval(900)])
        #expect(downAgain == [start.addingTimeInterval(30)])
        live.stop()
        watching.cancel()
        handle.cancel()
    }

    @Test(
        "the stream dropped 10 times while another device makes 200 changes: all 200 arrive, each return asks from the last id"
    )
    func dropsWhileChangesArrive() async throws {
        // Given: an empty copy kept current by a live stream; feed pages of 20
        let api = TestResourceAPI(collection: "tasks")
        api.feedPageSize = 20
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL, timeout: 30, retry: .never)
        let tasks = OfflineCollection<OfflineCollectionTests.Task>(
            database: try Database(at: folder.file("app.sqlite")), collection: "tasks", client: client
        ).followingChanges()
        _ = await PromiseExpectations.value(of: tasks.refresh())
        let fetched = Locked(0)
        let counted = LiveRefresh.Target(name: "tasks") {
            tasks.refresh().map(on: .inline) { refresh in
                if case .applied(let changes, _) = refresh { fetched.withLock { $0 += changes } }
                return refresh
            }
        }
        let streamClock = TestClock()
        let live = LiveRefresh(
            stream: EventStream(client: client, clock: streamClock), targets: [counted], spacing: 0)
        let isLive = DeliveryRecorder<Bool>()
        let watching = live.observeLive { isLive.record($0) }
        live.start()
        #expect(await isLive.next() == true)

        // When: ten rounds of 20 creates by another device, each round ended by the server dropping
        var lastIDs: [String] = []
        for round in 0..<10 {
            for number in 0..<20 {
                let body = Data(#"{"title": "\#(round)-\#(number)"}"#.utf8)
                _ = api.respond(TestHTTPServer.Request(method: "POST", path: "/tasks", body: body))
            }
            api.events.dropConnections()
            #expect(await isLive.next() == false)
            lastIDs.append(live.stream.lastEventID)
            streamClock.advance(300)
            #expect(await isLive.next() == true)
        }
        let count = DeliveryRecorder<Int>()
        let observation = tasks.observe(on: .inline) { result in
            if case .success(let snapshot) = result { count.record(snapshot.values.count) }
        }

        // Then: all 200 here; each return sent the last id received before its drop; and no
        // change fetched twice beyond a page
        #expect(await count.next { $0 == 200 } == 200)
        #expect(Array(api.events.lastEventIDs.dropFirst()) == lastIDs.map { $0.isEmpty ? nil : $0 })
        #expect(fetched.withLock { $0 } <= 200 + 20)
        live.stop()
        watching.cancel()
        observation.cancel()
    }

    @Test("an event while a create is in flight refreshes only after the create's answer is recorded")
    func noRefreshBesideASync() async throws {
        // Given: a task made here, its POST held by the API until the test lets it answer
        let api = TestResourceAPI(collection: "tasks")
        let (arrived, arrival) = Promise<Void>.pending()
        let release = DispatchSemaphore(value: 0)
        let server = try TestHTTPServer { request in
            if request.method == "POST" {
                arrival.fulfill(())
                _ = release.wait(timeout: .now() + 900)
            }
            return api.respond(request)
        }
        defer { server.stop() }
        defer { release.signal() }
        let network = ManualConnectivity(.unreachable)
        let tasks = OfflineCollection<OfflineCollectionTests.Task>(
            database: try Database(at: folder.file("app.sqlite")), collection: "tasks",
            client: OutboxDevice.patientClient(server), reachability: network
        ).followingChanges()
        _ = await PromiseExpectations.value(of: tasks.create(OfflineCollectionTests.Task(title: "Paint")))
        network.set(.reachable)
        let sync = tasks.sync()
        _ = await PromiseExpectations.value(of: arrived)
        let live = LiveRefresh(stream: Self.unopened(), targets: [.collection(tasks)], spacing: 0)

        // When: the API's event for that very create comes before its answer
        live.received(ServerSentEvent(data: #"{"tasks": "rev-1"}"#))
        let refreshedBeforeTheAnswer = server.requests.contains { $0.hasPrefix("GET /tasks") }
        release.signal()
        let report = await PromiseExpectations.value(of: sync)
        let copy = DeliveryRecorder<[String]>()
        let observation = tasks.observe(on: .inline) { result in
            if case .success(let snapshot) = result { copy.record(snapshot.values.map(\.title)) }
        }

        // Then: sent once, never refused, and the copy holds it once
        #expect(!refreshedBeforeTheAnswer)
        #expect(report?.sent.count == 1 && report?.refused.isEmpty == true)
        #expect(await copy.next() == ["Paint"])
        observation.cancel()
    }

    @Test("stop closes the stream: no longer live, no connection left")
    func stopClosesTheStream() async throws {
        // Given: a live refresh
        let (source, server, live) = try Self.liveRefresh()
        defer { server.stop() }
        let states = DeliveryRecorder<Bool>()
        let watching = live.observeLive { states.record($0) }
        defer { watching.cancel() }
        live.start()
        _ = await states.next(timeout: 900, where: { $0 })

        // When
        live.stop()

        // Then
        #expect(await states.next(where: { !$0 }) == false)
        #expect(await source.waitForConnections(atMost: 0))
        #expect(!live.isLive)
    }

    /// A refresh with no targets over a stream of its own server, its safety net 900 s. A timeout
    /// only a hang reaches: a slow run (ThreadSanitizer) must not drop the stream between going
    /// live and what the test reads.
    static func liveRefresh() throws -> (TestEventSource, TestHTTPServer, LiveRefresh) {
        let source = TestEventSource()
        let server = try TestHTTPServer(responder: { _ in .eventStream(source) })
        let live = LiveRefresh(
            stream: EventStream(client: APIClient(baseURL: server.baseURL, timeout: 900), clock: TestClock()),
            targets: [], safetyNet: 900)
        return (source, server, live)
    }
}
