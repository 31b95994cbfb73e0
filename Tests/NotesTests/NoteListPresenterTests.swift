import Foundation
import Notes
import OfflineKit
import PromiseMVPTesting
import Testing

/// A view that records what it is told, so a test waits for the screen it expects.
@MainActor
final class RecordingNoteListView: NoteListView {
    let rows = DeliveryRecorder<[String]>()
    let conflicts = DeliveryRecorder<[OfflineConflict<Note>]>()
    var syncNotice: String?
    var errors: [String] = []

    func showNotes(_ rows: [String], notice: String?, syncNotice: String?) {
        self.syncNotice = syncNotice
        self.rows.record(rows)
    }

    var pages: [[String]] = []
    var lastPageShown = false

    func showPage(_ rows: [String], isLast: Bool) {
        pages.append(rows)
        lastPageShown = isLast
    }

    func showConflicts(_ conflicts: [OfflineConflict<Note>]) {
        if !conflicts.isEmpty { self.conflicts.record(conflicts) }
    }

    func showError(_ message: String) { errors.append(message) }
}

/// Offline edits of a real SQLite file and a versioned test API.
@Suite("Notes screen")
@MainActor
struct NoteListPresenterTests {
    let folder = TemporaryFolder("NotesTests")
    let api = TestResourceAPI(
        collection: "notes", resources: [Note(id: "n1", title: "Shopping", text: "milk")])

    /// The notes on the test's file, at the app's model.
    func notes(_ server: TestHTTPServer, online: Bool) throws -> OfflineCollection<Note> {
        OfflineCollection<Note>(
            database: try Database(at: folder.file("notes.sqlite")), collection: "notes",
            client: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never),
            reachability: online ? AssumeReachable() : ManualConnectivity(.unreachable)
        ).model(version: Note.model.version, steps: Note.model.steps)
    }

    func presenter(_ server: TestHTTPServer, online: Bool) throws -> (
        NoteListPresenter, RecordingNoteListView
    ) {
        let view = RecordingNoteListView()
        return (NoteListPresenter(notes: try notes(server, online: online), view: view), view)
    }

    @Test("notes added and edited offline are shown waiting, then reach the API once, in order")
    func offlineEditsReachTheAPI() async throws {
        // Given: the list loaded online once, then the network gone
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (online, _) = try presenter(server, online: true)
        _ = await PromiseExpectations.value(of: online.load())
        let (offline, view) = try presenter(server, online: false)
        _ = await PromiseExpectations.value(of: offline.load())

        // When
        _ = await PromiseExpectations.value(of: offline.add(title: "Ideas", text: "a"))
        _ = await PromiseExpectations.value(
            of: offline.edit(id: "n1") { $0.title = "Groceries" })
        let waiting = await view.rows.next { $0.count == 2 && $0[0].hasPrefix("Groceries") }
        _ = await PromiseExpectations.value(of: online.send())

        // Then: the watching screen follows the sync made by another presenter
        #expect(waiting == ["Groceries (waiting to be sent)", "Ideas (waiting to be sent)"])
        #expect(await view.rows.next { $0 == ["Groceries", "Ideas"] } != nil)
        #expect(api.ids.count == 2 && api.field("title", of: "n1") == "Groceries")
        #expect(api.applied == ["POST /notes", "PUT /notes/n1"])
    }

    @Test("a long list comes a page at a time, by title, each row with its state")
    func pagesByTitle() async throws {
        // Given: three notes more, one of them waiting
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (online, _) = try presenter(server, online: true)
        _ = await PromiseExpectations.value(of: online.load())
        for title in ["Books", "Films"] {
            _ = await PromiseExpectations.value(of: online.add(title: title, text: ""))
        }
        let (offline, view) = try presenter(server, online: false)
        _ = await PromiseExpectations.value(of: offline.add(title: "Apples", text: ""))

        // When
        var cursor = await PromiseExpectations.value(of: offline.page(limit: 3)) ?? nil
        for _ in 0..<5 {  // at most five pages: pages that never end fail instead of hanging
            guard let next = cursor else { break }
            cursor = await PromiseExpectations.value(of: offline.page(after: next, limit: 3)) ?? nil
        }

        // Then
        #expect(view.pages == [["Apples (waiting to be sent)", "Books", "Films"], ["Shopping"]])
        #expect(view.lastPageShown)
    }

    @Test("a note created then deleted offline is never sent")
    func createThenDeleteSendsNothing() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (online, _) = try presenter(server, online: true)
        _ = await PromiseExpectations.value(of: online.load())
        let (offline, view) = try presenter(server, online: false)
        _ = await PromiseExpectations.value(of: offline.load())
        _ = await PromiseExpectations.value(of: offline.add(title: "Draft", text: "x"))
        _ = await view.rows.next { $0.count == 2 }

        // When
        let id = await PromiseExpectations.value(of: try notes(server, online: false).snapshot())?
            .values.first { $0.title == "Draft" }?.id
        _ = await PromiseExpectations.value(of: offline.delete(id: id ?? ""))
        _ = await PromiseExpectations.value(of: online.send())

        // Then
        #expect(await view.rows.next { $0 == ["Shopping"] } != nil)
        #expect(api.applied.isEmpty)
    }

    @Test(
        "an edit made here and in the API to the same field: both sides shown, then settled as the user chose",
        arguments: [
            (OfflineResolution<Note>.mine, "Mine"), (.theirs, "Theirs"),
            (.merged(Note(title: "Mine and theirs", text: "milk")), "Mine and theirs"),
        ])
    func conflictShownAndResolved(resolution: OfflineResolution<Note>, title: String) async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (online, view) = try presenter(server, online: true)
        _ = await PromiseExpectations.value(of: online.load())
        let (offline, _) = try presenter(server, online: false)
        _ = await PromiseExpectations.value(
            of: offline.edit(id: "n1") { $0.title = "Mine" })
        api.edit("n1", ["title": "Theirs"])

        // When
        _ = await PromiseExpectations.value(of: online.send())
        let conflict = await view.conflicts.next()?.first
        _ = await view.rows.next { $0 == ["Mine (changed elsewhere too: keep yours, theirs or both)"] }
        _ = await PromiseExpectations.value(of: online.resolve(id: "n1", with: resolution))

        // Then
        #expect(conflict?.mine?.title == "Mine" && conflict?.theirs?.title == "Theirs")
        #expect(conflict?.fields == ["title"])
        #expect(api.field("title", of: "n1") == title)
        #expect(await view.rows.next { $0 == [title] } != nil)
    }

    @Test("online, an edit of a note changed elsewhere meanwhile shows both sides, not written over")
    func onlineStaleEditShowsTheConflict() async throws {
        // Given
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let (online, view) = try presenter(server, online: true)
        _ = await PromiseExpectations.value(of: online.load())
        api.edit("n1", ["text": "bread"])

        // When
        let error = await PromiseExpectations.error(
            of: online.edit(id: "n1") { $0.text = "eggs" })

        // Then
        let shown = await view.conflicts.next()?.first
        #expect(error is OfflineConflict<Note>)
        #expect(shown?.mine?.text == "eggs" && shown?.theirs?.text == "bread" && shown?.fields == ["text"])
        #expect(api.field("text", of: "n1") == "bread")
    }

    /// The first version of the app's note, before `pinned`.
    struct FirstNote: OfflineResource {
        var id: String?
        var version: String?
        var title: String
        var text: String
    }

    @Test("a note the first version of the app saved offline is sent, unpinned, by the second")
    func noteFromTheFirstVersionIsSent() async throws {
        // Given: the first version saved a note offline, in its shape; the API takes the second's only
        let api = TestResourceAPI(
            collection: "notes", resources: [Note(id: "n1", title: "Shopping", text: "milk")],
            accepting: { body in
                let note = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
                return note?["pinned"] as? Bool == false ? body : nil
            })
        let server = try TestHTTPServer(responder: api.respond)
        defer { server.stop() }
        let first = OfflineCollection<FirstNote>(
            database: try Database(at: folder.file("notes.sqlite")), collection: "notes",
            client: APIClient(baseURL: server.baseURL), reachability: ManualConnectivity(.unreachable))
        _ = await PromiseExpectations.value(of: first.create(FirstNote(title: "Ideas", text: "a")))

        // When: the second version starts, and sends it
        let (online, view) = try presenter(server, online: true)
        _ = await PromiseExpectations.value(of: online.load())
        _ = await PromiseExpectations.value(of: online.send())

        // Then
        #expect(await view.rows.next { Set($0) == ["Ideas", "Shopping"] } != nil)
        #expect(api.applied == ["POST /notes"] && api.ids.count == 2)
    }
}
