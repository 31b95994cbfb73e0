import Foundation
import Melodies
import MelodiesTesting
import Testing

/// The live service end to end: a real HTTP server on 127.0.0.1 and a real SQLite file.
@Suite("Live melody service")
struct LiveMelodyServiceTests {
    let temporary = TemporaryFolder("LiveMelodyServiceTests")
    var folder: URL { temporary.url }
    let server: TestHTTPServer

    init() throws {
        let json = String(decoding: try JSONEncoder().encode(Melody.mocks()), as: UTF8.self)
        server = try TestHTTPServer(["/melodies": .status(200, body: json)])
    }

    func makeService() throws -> LiveMelodyService {
        LiveMelodyService(
            api: APIClient(baseURL: server.baseURL, timeout: 30, retry: .never),
            database: try Database(at: folder.appendingPathComponent("app.sqlite")))
    }

    @Test("online, the melodies come from the API and fill the cache; offline, the same come from the cache")
    func onlineThenOffline() async throws {
        // Given
        let service = try makeService()

        // When: online
        let online = await PromiseExpectations.value(of: service.getMelodiesWithSource())

        // Then
        #expect(online?.value == Melody.mocks())
        #expect(online?.source == .network)

        // When: the network goes (the connection is reset: a stopped server's port may be taken by
        // another test's server meanwhile), and the app starts again on the same file
        server.set("/melodies", .reset)
        let restarted = try makeService()
        let offline = await PromiseExpectations.value(of: restarted.getMelodiesWithSource())

        // Then
        #expect(offline?.value == Melody.mocks())
        guard case .cache(_, let reason)? = offline?.source else {
            Issue.record("expected cached melodies, got \(String(describing: offline?.source))")
            return
        }
        #expect(reason == .noNetwork)
    }

    @Test("offline with an empty cache, the view is told noData")
    @MainActor
    func offlineWithoutCacheShowsNoData() async throws {
        // Given: the connection reset, as when the network is gone
        server.set("/melodies", .reset)
        let view = RecordingMelodyListView()
        let presenter = MelodyListPresenterImp(melodyService: try makeService(), view: view)
        view.presenter = presenter

        // When
        let error = await PromiseExpectations.error(of: presenter.fetchMelodies())

        // Then
        #expect(error as? ServiceRequestError == .noData)
        #expect(view.shownError == .noData)
        #expect(view.shownMessage == ServiceRequestError.noData.userMessage)
    }
}
