import Foundation
import PromiseMVPTesting
import Promises
import Testing

@testable import OfflineKit
@testable import Services

/// The article "Asking the copy", as a test: a task list's questions to the copy.
@Suite("Asking the copy")
struct AskingTheCopyTests {
    struct Task: OfflineResource, Equatable {
        var id: String?
        var version: String?
        var title: String
        var projectId: String
        var due: Date
        var points: Int
    }

    let folder = TemporaryFolder("AskingTheCopyTests")

    @Test("the tasks of a project by due date, a page at a time, counted and watched")
    func tasksOfAProject() async throws {
        // Given: tasks kept offline, with an index for the question the screen asks
        let tasks = OfflineCollection<Task>(
            database: try Database(at: folder.file("app.sqlite")), collection: "tasks",
            client: APIClient(baseURL: URL(fileURLWithPath: "/")),
            reachability: OfflineCollectionTests.Offline()
        )
        .indexed(by: "projectId", "due")
        let now = Date(timeIntervalSince1970: 1_796_083_200)
        for day in 0..<5 {
            let task = Task(
                title: "day \(day)", projectId: day < 3 ? "house" : "garden",
                due: now.addingTimeInterval(Double(day) * 86_400), points: 10 - day)
            _ = await PromiseExpectations.value(of: tasks.create(task))
        }

        // When: the house's tasks, soonest first, two at a time
        let soonest = OfflineQuery(
            where: .equals("projectId", "house"), sortedBy: [.ascending("due")], limit: 2)
        let first = await PromiseExpectations.value(of: tasks.query(soonest))
        let rest = await PromiseExpectations.value(of: tasks.query(after: try #require(first?.next)))
        let big = await PromiseExpectations.value(of: tasks.count(where: .atLeast("points", 9)))
        let watched = DeliveryRecorder<[String]>()
        let observation = tasks.observe(soonest, on: .inline) { result in
            if case .success(let found) = result { watched.record(found.values.map(\.title)) }
        }

        // Then
        #expect(first?.values.map(\.title) == ["day 0", "day 1"])
        #expect(first?.status.waiting == 2)  // each made here, waiting to be sent
        #expect(rest?.values.map(\.title) == ["day 2"])
        #expect(rest?.next == nil)
        #expect(big == 2)  // 10 and 9, as numbers
        #expect(await watched.next() == ["day 0", "day 1"])
        observation.cancel()
    }
}
