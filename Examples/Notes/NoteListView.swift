public import OfflineKit

/// The notes screen, passive: it shows what the presenter gives it.
@MainActor
public protocol NoteListView: AnyObject {
    /// One row per note: its title and whether the API has it as shown.
    func showNotes(_ rows: [String], notice: String?, syncNotice: String?)
    /// One page of a long list, by title: its rows, and whether it is the last.
    func showPage(_ rows: [String], isLast: Bool)
    /// The notes changed here and elsewhere: both sides of each, for the user to keep one or merge.
    func showConflicts(_ conflicts: [OfflineConflict<Note>])
    /// Says why the list or a change failed.
    func showError(_ message: String)
}
