public import Promises
public import Services

/// Lists the notes and applies the user's edits, offline as well as online.
@MainActor
public final class NoteListPresenter {
    /// The screen it drives.
    public weak var view: (any NoteListView)?
    let notes: OfflineCollection<Note>
    let notice = SourceNotice(noun: "notes")

    /// Makes the presenter of `notes`, for `view`.
    public init(notes: OfflineCollection<Note>, view: (any NoteListView)?) {
        self.notes = notes
        self.view = view
    }

    /// Shows the notes; the promise settles once the view was told.
    @discardableResult
    public func load() -> Promise<Void> {
        let notes = notes
        // The status after the list: listing online sends the waiting changes first.
        return notes.list().then(on: .inline) { fetched in notes.status().map(on: .inline) { (fetched, $0) } }
            .done { fetched, status in
                let rows = fetched.value.map { note in
                    let state = status.state(of: note.id ?? "")
                    return state == .synced ? note.title : "\(note.title) (\(Self.label(state)))"
                }
                self.view?.showNotes(
                    rows, notice: self.notice.text(for: fetched), syncNotice: Self.summary(status))
            }
            .recover { error -> Promise<Void> in
                self.view?.showError(ServiceRequestError(error).userMessage)
                throw error
            }
    }

    /// Adds a note, then shows the list.
    public func add(title: String, text: String) -> Promise<Void> {
        reloading(notes.create(Note(title: title, text: text)).asVoid())
    }

    /// Saves the user's edit of a note, then shows the list.
    public func edit(_ note: Note) -> Promise<Void> {
        reloading(notes.update(note).asVoid())
    }

    /// Deletes a note, then shows the list.
    public func delete(id: String) -> Promise<Void> {
        reloading(notes.delete(id: id))
    }

    /// Settles a note's conflict with a change made elsewhere, then shows the list.
    public func resolve(id: String, keepingMine: Bool) -> Promise<Void> {
        reloading(
            notes.resolve(id: id, keeping: keepingMine ? .mine : .theirs).then { _ in self.notes.sync() }
                .asVoid())
    }

    /// After a change: the list again, or the reason it failed.
    private func reloading(_ change: Promise<Void>) -> Promise<Void> {
        change.then { self.load() }
            .recover { error -> Promise<Void> in
                self.view?.showError(ServiceRequestError(error).userMessage)
                throw error
            }
    }

    static func label(_ state: SyncState) -> String {
        switch state {
        case .synced: "saved"
        case .pending: "waiting to be sent"
        case .conflicted: "changed elsewhere too: keep yours or theirs"
        default: "not sent: retry or discard"
        }
    }

    static func summary(_ status: OutboxStatus) -> String? {
        status.waiting + status.held == 0 ? nil : "\(status.waiting) waiting, \(status.held) to look at."
    }
}
