public import OfflineKit
import Promises
import Services

/// The tasks of one project, soonest first: a question asked of the copy and watched, so a task
/// added, edited or synced shows at once, and the project's id here keeps finding its tasks after
/// the API's id replaces it (the kit follows ids: no `currentID(of:)` in the screen).
@MainActor
public final class ProjectTasksPresenter {
    /// The screen it drives: one row per task of the project, and what waits among them.
    public weak var view: (any TaskListView)?
    let tasks: OfflineCollection<PlannedTask>
    let question: OfflineQuery
    var observation: ObservationHandle?

    /// Makes the presenter of the tasks of `project`, by its id here or the API's.
    public init(tasks: OfflineCollection<PlannedTask>, project: String) {
        self.tasks = tasks.indexed(by: "projectId", "due")
        question = OfflineQuery(where: .equals("projectId", .text(project)), sortedBy: [.ascending("due")])
    }

    /// Shows the project's tasks, then again each time they change.
    public func load() {
        observation = tasks.observe(question, on: .inline) { [weak self] result in
            Guarantee.value(result).done { self?.show($0) }
        }
    }

    /// Stops watching.
    public func stop() { observation = nil }

    private func show(_ result: Result<OfflineQueryResult<PlannedTask>, ServiceRequestError>) {
        switch result {
        case .success(let found):
            view?.showTasks(
                found.items.map(TaskListPresenter.row), notice: nil,
                syncNotice: SyncNotice().list(found.status))
        case .failure(let error): view?.showError(error.userMessage)
        }
    }
}
