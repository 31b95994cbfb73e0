public import Foundation
public import OfflineKit
public import Promises
public import Services

/// Lists the tasks and applies the user's edits, offline as well as online; sends them, and takes
/// other devices' changes, by itself.
@MainActor
public final class TaskListPresenter {
    /// The screen it drives.
    public weak var view: (any TaskListView)?
    let tasks: OfflineCollection<PlannedTask>
    let scheduler: SyncScheduler
    let now: @Sendable () -> Date
    let (notice, sync) = (SourceNotice(noun: "tasks"), SyncNotice())
    var observations: [ObservationHandle] = []

    /// Makes the presenter of `tasks`: two edits of different fields merge, whatever their
    /// `updatedAt`; the API's change feed brings other devices' edits every `refreshEvery` seconds.
    public init(
        tasks: OfflineCollection<PlannedTask>, connectivity: any ConnectivityMonitor,
        clock: any SyncClock = .system,
        refreshEvery: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        let tasks = tasks.followingChanges().merging(\.updatedAt) { mine, theirs in max(mine, theirs) }
        (self.tasks, self.now) = (tasks, now)
        scheduler = SyncScheduler(syncing: [tasks], connectivity: connectivity, clock: clock)
        observations.append(scheduler.refresh(every: refreshEvery) { tasks.refresh().asVoid() })
    }

    /// Shows the tasks, then each change to them, and starts sending and refreshing by itself.
    @discardableResult
    public func load() -> Promise<Void> {
        let tasks = tasks
        let (loaded, observation) = ListLoad<OfflineSnapshot<PlannedTask>>(
            show: { [weak self] fetched, refreshing in self?.show(fetched, refreshing: refreshing) },
            fail: { [weak self] in self?.view?.showError($0.userMessage) }
        ).watch {
            tasks.list(showingCopy: $0)
        } following: {
            tasks.observe($0)
        }
        if let observation { observations.append(observation) }
        scheduler.start()
        return loaded.asVoid()
    }

    /// Shows a page of the tasks by due date, the first without a cursor; gives where the next starts.
    public func page(after cursor: OfflinePageCursor? = nil, limit: Int = 50) -> Promise<OfflinePageCursor?> {
        let page =
            cursor.map { tasks.page(after: $0, limit: limit) }
            ?? tasks.page(limit: limit, order: .ascending("due"))
        return page.map { page in
            self.view?.showPage(page.items.map(Self.row), isLast: page.next == nil)
            return page.next
        }
    }

    /// Adds a task.
    public func add(title: String, due: Date) -> Promise<Void> {
        reporting(tasks.create(PlannedTask(title: title, due: due, updatedAt: now())).asVoid())
    }

    /// Saves the user's edit of a task (a rename, a completion), made to its latest value, dated.
    public func edit(id: String, _ change: @escaping @Sendable (inout PlannedTask) -> Void) -> Promise<Void> {
        let now = now()
        return reporting(
            tasks.update(id: id) {
                change(&$0)
                $0.updatedAt = now
            }.asVoid())
    }

    /// Deletes a task.
    public func delete(id: String) -> Promise<Void> {
        reporting(tasks.delete(id: id))
    }

    /// Settles a task's conflict (mine, theirs, or merged), then sends it.
    public func resolve(id: String, with resolution: OfflineResolution<PlannedTask>) -> Promise<Void> {
        reporting(tasks.resolve(id: id, with: resolution).then { _ in self.tasks.sync() }.asVoid())
    }

    /// Stops sending and refreshing.
    public func stop() -> Guarantee<Void> {
        observations.removeAll()
        return scheduler.stop()
    }

    /// A change's failure, told to the user the kit's way: a conflict with both sides, anything
    /// else in one sentence.
    private func reporting(_ change: Promise<Void>) -> Promise<Void> {
        change.reportingChangeFailure(
            of: PlannedTask.self, conflict: { [weak self] in self?.view?.showConflicts([$0]) },
            error: { [weak self] in self?.view?.showError($0) })
    }

    private func show(_ fetched: Fetched<OfflineSnapshot<PlannedTask>>, refreshing: Bool) {
        view?.showTasks(
            fetched.value.items.map(Self.row), notice: notice.text(for: fetched, refreshing: refreshing),
            syncNotice: sync.list(fetched.value.status))
        view?.showConflicts(fetched.value.conflicts)
    }

    static func row(_ item: OfflineItem<PlannedTask>) -> String {
        let title = (item.value.done ? "✓ " : "") + item.value.title
        return item.state == .synced ? title : "\(title) (\(label(item.state)))"
    }

    static func label(_ state: SyncState) -> String {
        switch state {
        case .pending: "waiting to be sent"
        case .conflicted: "changed elsewhere too"
        default: "not sent: retry or discard"
        }
    }
}
