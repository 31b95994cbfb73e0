import Foundation
import OfflineKit
import PromiseMVPTesting
import Tasks
import Testing

/// A view that records what it is told, so a test waits for the screen it expects.
@MainActor
final class RecordingTaskListView: TaskListView {
    let rows = DeliveryRecorder<[String]>()
    let conflicts = DeliveryRecorder<[OfflineConflict<PlannedTask>]>()
    var pages: [[String]] = []
    var lastPageShown = false
    var errors: [String] = []
    /// The sync notice shown with the last rows.
    var syncNotice: String?

    func showTasks(_ rows: [String], notice: String?, syncNotice: String?) {
        self.syncNotice = syncNotice
        self.rows.record(rows)
    }

    func showPage(_ rows: [String], isLast: Bool) {
        pages.append(rows)
        lastPageShown = isLast
    }

    func showConflicts(_ conflicts: [OfflineConflict<PlannedTask>]) {
        if !conflicts.isEmpty { self.conflicts.record(conflicts) }
    }

    func showError(_ message: String) { errors.append(message) }
}

/// The Tasks screen over a real SQLite file and a versioned test API with a change feed: offline
/// edits, pages by due date, merges by field, conflicts settled three ways, and what another
/// device or process changed, each shown without a hand on the sync.
@Suite("Tasks screen")
@MainActor
struct TaskListPresenterTests {
    let folder = TemporaryFolder("TasksTests")
    let clock = TestClock()
    let network = ManualConnectivity(.reachable)
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    let api = TestResourceAPI(
        collection: "tasks",
        resources: [PlannedTask(id: "t1", title: "Pay rent", due: start, updatedAt: start)])

    /// The collection on the test's file, through a connection of its own (another process's, say).
    func tasks(_ server: TestHTTPServer) throws -> OfflineCollection<PlannedTask> {
        OfflineCollection<PlannedTask>(
            database: try Database(at: folder.file("tasks.sqlite")), collection: "tasks",
            client: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never), reachability: network)
    }

    func presenter(_ server: TestHTTPServer) throws -> (TaskListPresenter, RecordingTaskListView) {
        let view = RecordingTaskListView()
        let clock = clock
        let presenter = TaskListPresenter(
            tasks: try tasks(server), connectivity: network, clock: clock,
            now: { clock.now.addingTimeInterval(60) })
        presenter.view = view
        return (presenter, view)
    }

    /// The screen loaded online, showing the API's one task.
    func loadedOnline(_ server: TestHTTPServer) async throws -> (TaskListPresenter, RecordingTaskListView) {
        let (presenter, view) = try presenter(server)
        _ = await PromiseExpectations.value(of: presenter.load())
        _ = await view.rows.next { $0 == ["Pay rent"] }
        return (presenter, view)
    }

    @Test("tasks added, renamed and completed offline are shown waiting, then sent by themselves once online")
    func offlineEditsAreSentByThemselves() async throws {
        // Given: the list loaded online, then the network gone
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (presenter, view) = try await loadedOnline(server)
        network.set(.unreachable)

        // When
        _ = await PromiseExpectations.value(of: presenter.add(title: "Buy milk", due: Self.start))
        _ = await PromiseExpectations.value(of: presenter.edit(id: "t1") { $0.title = "Pay the rent" })
        _ = await PromiseExpectations.value(of: presenter.edit(id: "t1") { $0.done = true })
        let waiting = await view.rows.next { $0.contains("✓ Pay the rent (waiting to be sent)") }
        network.set(.reachable)

        // Then
        #expect(waiting?.contains("Buy milk (waiting to be sent)") == true, "\(String(describing: waiting))")
        #expect(await view.rows.next { Set($0) == ["✓ Pay the rent", "Buy milk"] } != nil)
        #expect(api.field("title", of: "t1") == "Pay the rent" && api.ids.count == 2)
        await presenter.stop().value
    }

    @Test("1,011 tasks come a page at a time in due-date order, fractions of a second included")
    func pagesByDueDate() async throws {
        // Given: due dates 0.05 s apart, listed in another order, titles in a third
        let tasks = (0..<1_011).map { index in
            PlannedTask(
                id: "t\(1_010 - index)", title: String(format: "task %04d", index * 7_919 % 1_011),
                due: Self.start.addingTimeInterval(Double(index) * 0.05), updatedAt: Self.start)
        }
        let api = TestResourceAPI(collection: "tasks", resources: tasks.reversed())
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (presenter, view) = try presenter(server)
        _ = await PromiseExpectations.value(of: presenter.load())

        // When
        var cursor = await PromiseExpectations.value(of: presenter.page(limit: 100))
        while let next = cursor.flatMap({ $0 }) {
            cursor = await PromiseExpectations.value(of: presenter.page(after: next, limit: 100))
        }

        // Then
        #expect(view.pages.count == 11 && view.lastPageShown)
        #expect(view.pages.flatMap { $0 } == tasks.map(\.title))
        await presenter.stop().value
    }

    @Test("a rename here and a completion elsewhere both stay: the later updatedAt is taken, no conflict")
    func differentFieldsMerge() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (presenter, view) = try await loadedOnline(server)
        network.set(.unreachable)
        _ = await PromiseExpectations.value(of: presenter.edit(id: "t1") { $0.title = "Pay the rent" })
        api.edit("t1", as: PlannedTask.self) {
            $0.done = true
            $0.updatedAt = Self.start.addingTimeInterval(30)
        }

        // When
        network.set(.reachable)

        // Then
        #expect(await view.rows.next { $0 == ["✓ Pay the rent"] } != nil)
        #expect(api.field("title", of: "t1") == "Pay the rent")
        #expect(view.conflicts.all.isEmpty)
        // the rename's time (a minute after the start), later than the completion's
        let later = ISO8601DateFormatter().string(from: Self.start.addingTimeInterval(60))
        #expect(
            api.field("updatedAt", of: "t1") == later,
            "\(String(describing: api.field("updatedAt", of: "t1")))")
        await presenter.stop().value
    }

    @Test(
        "a title changed here and elsewhere shows both sides; settled as mine, theirs or merged, that is sent",
        arguments: [("mine", "Mine"), ("theirs", "Theirs"), ("merged", "Mine and theirs")])
    func conflictSettled(resolution: String, title: String) async throws {
        // Given: the same field changed on both sides
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (presenter, view) = try await loadedOnline(server)
        network.set(.unreachable)
        _ = await PromiseExpectations.value(of: presenter.edit(id: "t1") { $0.title = "Mine" })
        api.edit("t1", ["title": "Theirs"])
        network.set(.reachable)
        let conflict = try #require(await view.conflicts.next()?.first)

        // When
        var merged = try #require(conflict.mine)
        merged.title = "Mine and theirs"
        let settled: OfflineResolution<PlannedTask> =
            resolution == "mine" ? .mine : resolution == "theirs" ? .theirs : .merged(merged)
        _ = await PromiseExpectations.value(of: presenter.resolve(id: "t1", with: settled))

        // Then
        #expect(conflict.mine?.title == "Mine" && conflict.theirs?.title == "Theirs")
        #expect(conflict.changedOnBothSides == ["title"])
        #expect(await view.rows.next { $0 == [title] } != nil)
        #expect(api.field("title", of: "t1") == title)
        await presenter.stop().value
    }

    @Test("another device's change comes down from the feed, and another process's task shows up, unasked")
    func changesFromElsewhereShowUp() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (presenter, view) = try await loadedOnline(server)

        // When: another device renames the task; the refresh is due
        api.edit("t1", ["title": "Pay rent today"])
        clock.advance(60)
        let fromFeed = await view.rows.next { $0 == ["Pay rent today"] }
        // and another process on the same file adds one, offline
        network.set(.unreachable)
        let elsewhere = try tasks(server)
        _ = await PromiseExpectations.value(
            of: elsewhere.create(PlannedTask(title: "Call Amy", due: Self.start, updatedAt: Self.start)))

        // Then
        #expect(fromFeed != nil)
        #expect(await view.rows.next { $0.contains("Call Amy (waiting to be sent)") } != nil)
        await presenter.stop().value
    }
}
