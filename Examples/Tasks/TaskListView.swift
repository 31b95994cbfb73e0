public import OfflineKit

/// The tasks screen, passive: it shows what the presenter gives it.
@MainActor
public protocol TaskListView: AnyObject {
    /// One row per task (its title, a tick when done, and its state unless the API has it as shown).
    func showTasks(_ rows: [String], notice: String?, syncNotice: String?)
    /// One page of the tasks by due date: its rows, and whether it is the last.
    func showPage(_ rows: [String], isLast: Bool)
    /// The tasks changed here and elsewhere in the same fields: both sides, for the user to settle.
    func showConflicts(_ conflicts: [OfflineConflict<PlannedTask>])
    /// Says why the list or a change failed.
    func showError(_ message: String)
}
