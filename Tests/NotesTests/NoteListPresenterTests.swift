import Foundation
import Notes
import PromiseMVPTesting
import Testing

/// A view that keeps what it was told last.
@MainActor
final class RecordingNoteListView: NoteListView {
    var rows: [String] = []
    var notice: String?
    var syncNotice: String?
    var errors: [String] = []

    func showNotes(_ rows: [String], notice: String?, syncNotice: String?) {
        self.rows = rows
        self.notice = notice
        self.syncNotice = syncNotice
    }

    func showError(_ message: String) { errors.append(message) }
}

/// Offline edits of a real SQLite file and a versioned test API.
struct Unreachable: NetworkReachability {
    var isReachable: Bool { false }
}

@Suite("Notes screen")
@MainActor
struct NoteListPresenterTests {
    let folder = TemporaryFolder("NotesTests")
    let api = TestResourceAPI(
        collection: "notes", resources: [["id": "n1", "title": "Shopping", "text": "milk"]])

    func presenter(_ server: TestHTTPServer, online: Bool, file: String = "notes.sqlite") throws
        -> (NoteListPresenter, RecordingNoteListView)
    {
        let notes = OfflineCollection<Note>(
            database: try Database(at: folder.file(file)), collection: "notes",
            client: APIClient(baseURL: server.baseURL, timeout: 5, retry: .never),
            reachability: online ? AssumeReachable() : Unreachable())
        let view = RecordingNoteListView()
        return (NoteListPresenter(notes: notes, view: view), view)
    }

    @Test("notes added and edited offline are shown waiting, then reach the API once, in order")
    func offlineEditsReachTheAPI() async throws {
        // Given: the list loaded online once, then the network gone
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (online, _) = try presenter(server, online: true)
        _ = await PromiseExpectations.value(of: online.load())
        let (offline, view) = try presenter(server, online: false)

        // When
        _ = await PromiseExpectations.value(of: offline.add(title: "Ideas", text: "a"))
        _ = await PromiseExpectations.value(
            of: offline.edit(Note(id: "n1", version: "1", title: "Groceries", text: "milk")))
        let waiting = view.rows
        _ = await PromiseExpectations.value(of: online.load())

        // Then
        #expect(waiting == ["Groceries (waiting to be sent)", "Ideas (waiting to be sent)"])
        #expect(api.ids.count == 2 && api.field("title", of: "n1") == "Groceries")
        #expect(api.applied == ["POST /notes", "PUT /notes/n1"])
    }

    @Test("a note created then deleted offline is never sent")
    func createThenDeleteSendsNothing() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (online, onlineView) = try presenter(server, online: true)
        _ = await PromiseExpectations.value(of: online.load())
        let (offline, _) = try presenter(server, online: false)
        _ = await PromiseExpectations.value(of: offline.add(title: "Draft", text: "x"))

        // When
        let id = await PromiseExpectations.value(
            of: OfflineCollection<Note>(
                database: try Database(at: folder.file("notes.sqlite")), collection: "notes",
                client: APIClient(baseURL: server.baseURL), reachability: Unreachable()
            ).list(policy: .cacheOnly))?.value.first { $0.title == "Draft" }?.id
        _ = await PromiseExpectations.value(of: offline.delete(id: id ?? ""))
        _ = await PromiseExpectations.value(of: online.load())

        // Then
        #expect(api.applied.isEmpty)
        #expect(onlineView.rows == ["Shopping"])
    }

    @Test("an edit made here and in the API to the same field: shown as a conflict, then resolved with mine")
    func conflictShownAndResolved() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (online, view) = try presenter(server, online: true)
        _ = await PromiseExpectations.value(of: online.load())
        let (offline, _) = try presenter(server, online: false)
        _ = await PromiseExpectations.value(
            of: offline.edit(Note(id: "n1", version: "1", title: "Mine", text: "milk")))
        api.edit("n1", ["title": "Theirs"])

        // When
        _ = await PromiseExpectations.value(of: online.load())
        let conflicted = view.rows
        _ = await PromiseExpectations.value(of: online.resolve(id: "n1", keepingMine: true))

        // Then
        #expect(conflicted == ["Mine (changed elsewhere too: keep yours or theirs)"])
        #expect(api.field("title", of: "n1") == "Mine")
        #expect(view.rows == ["Mine"] && view.syncNotice == nil)
    }

    @Test("online, an edit of a note changed elsewhere meanwhile is refused and said, not written over")
    func onlineStaleEditIsRefused() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (online, view) = try presenter(server, online: true)
        _ = await PromiseExpectations.value(of: online.load())
        api.edit("n1", ["text": "bread"])

        // When
        _ = await PromiseExpectations.error(
            of: online.edit(Note(id: "n1", version: "1", title: "Shopping", text: "eggs")))

        // Then
        #expect(view.errors == [ServiceRequestError.httpStatus(412).userMessage])
        #expect(api.field("text", of: "n1") == "bread")
    }
}
