public import OfflineKit
public import Promises
import Services

/// Lists the notes and applies the user's edits, offline as well as online.
@MainActor
public final class NoteListPresenter {
    /// The screen it drives.
    public weak var view: (any NoteListView)?
    let notes: OfflineCollection<Note>
    let notice = SourceNotice(noun: "notes")
    let sync = SyncNotice()
    /// Keeps the screen following the notes for as long as the presenter lives.
    var observation: ObservationHandle?

    /// Makes the presenter of `notes`, for `view`.
    public init(notes: OfflineCollection<Note>, view: (any NoteListView)?) {
        self.notes = notes
        self.view = view
    }

    /// Shows the notes, then each change to them (an edit, a sync, another process); the promise
    /// settles once the first list was shown.
    @discardableResult
    public func load() -> Promise<Void> {
        let notes = notes
        let (loaded, observation) = ListLoad<OfflineSnapshot<Note>>(
            show: { [weak self] fetched, refreshing in self?.show(fetched, refreshing: refreshing) },
            fail: { [weak self] in self?.view?.showError($0.userMessage) }
        ).watch {
            notes.list(showingCopy: $0)
        } following: {
            notes.observe($0)
        }
        self.observation = observation
        return loaded.asVoid()
    }

    /// Shows a page of the notes by title, the first without a cursor; the promise gives where
    /// the next starts (`nil` after the last).
    public func page(after cursor: OfflinePageCursor? = nil, limit: Int = 50) -> Promise<OfflinePageCursor?> {
        let page =
            cursor.map { notes.page(after: $0, limit: limit) }
            ?? notes.page(limit: limit, order: .ascending("title"))
        return page.map { page in
            self.view?.showPage(page.items.map(Self.row), isLast: page.next == nil)
            return page.next
        }
    }

    /// Adds a note.
    public func add(title: String, text: String) -> Promise<Void> {
        reporting(notes.create(Note(title: title, text: text)).asVoid())
    }

    /// Saves the user's edit of a note, made to its latest value.
    public func edit(id: String, _ change: @escaping @Sendable (inout Note) -> Void) -> Promise<Void> {
        reporting(notes.update(id: id, change).asVoid())
    }

    /// Deletes a note.
    public func delete(id: String) -> Promise<Void> {
        reporting(notes.delete(id: id))
    }

    /// Sends the changes that wait.
    public func send() -> Promise<Void> {
        reporting(notes.sync().asVoid())
    }

    /// Settles a note's conflict (mine, theirs, or a note merged from both), then sends it.
    public func resolve(id: String, with resolution: OfflineResolution<Note>) -> Promise<Void> {
        reporting(notes.resolve(id: id, with: resolution).then { _ in self.notes.sync() }.asVoid())
    }

    /// A change's failure, told to the user the kit's way: a conflict with both sides, anything
    /// else in one sentence.
    private func reporting(_ change: Promise<Void>) -> Promise<Void> {
        change.reportingChangeFailure(
            of: Note.self, conflict: { [weak self] in self?.view?.showConflicts([$0]) },
            error: { [weak self] in self?.view?.showError($0) })
    }

    private func show(_ fetched: Fetched<OfflineSnapshot<Note>>, refreshing: Bool) {
        let rows = fetched.value.items.map(Self.row)
        view?.showNotes(
            rows, notice: notice.text(for: fetched, refreshing: refreshing),
            syncNotice: sync.list(fetched.value.status))
        view?.showConflicts(fetched.value.conflicts)
    }

    /// A note's row: its title, and its state unless the API has it.
    static func row(_ item: OfflineItem<Note>) -> String {
        item.state == .synced ? item.value.title : "\(item.value.title) (\(label(item.state)))"
    }

    static func label(_ state: SyncState) -> String {
        switch state {
        case .synced: "saved"
        case .pending: "waiting to be sent"
        case .conflicted: "changed elsewhere too: keep yours, theirs or both"
        default: "not sent: retry or discard"
        }
    }
}
