import Foundation
import PromiseMVPTesting
import Recipes
import Testing

/// The live service against a real loopback server and a real SQLite file.
@Suite("Live recipe service")
struct LiveRecipeServiceTests {
    let folder = TemporaryFolder("RecipesTests")

    @Test("online the API's recipes are kept; with the server down, the copy is shown, saying so")
    func onlineThenOffline() async throws {
        // Given
        let server = try TestHTTPServer([
            "/recipes": .status(200, body: #"[{"name": "Soup", "minutes": 30}]"#)
        ])
        defer { server.stop() }
        let service = LiveRecipeService(
            api: APIClient(baseURL: server.baseURL, retry: .never),
            database: try Database(at: folder.file("app.sqlite")))
        let online = await PromiseExpectations.value(of: service.recipes(policy: .networkFirst) { _ in })

        // When
        server.stop()
        let offline = await PromiseExpectations.value(of: service.recipes(policy: .networkFirst) { _ in })

        // Then
        #expect(online?.source == .network)
        #expect(offline?.value == [Recipe(name: "Soup", minutes: 30)])
        // Worded as of the copy's own date: a slow run (ThreadSanitizer) must not make it "1 minute ago".
        let copy = try #require(offline)
        #expect(
            SourceNotice(noun: "recipes", now: { copy.source.savedAt ?? Date() }).text(for: copy)
                == "Offline: showing recipes saved just now.")
    }
}
