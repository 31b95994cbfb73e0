import Foundation
import PromiseMVPTesting
import Recipes
import Testing

/// A service double: the answer a test chooses, and the copy it shows first, if any.
final class RecipeServiceMock: RecipeService, ServiceRequestMock {
    let result: ServiceRequestResult
    let copy: Fetched<[Recipe]>?

    init(_ result: ServiceRequestResult, copy: Fetched<[Recipe]>? = nil) {
        self.result = result
        self.copy = copy
    }

    func recipes(
        policy: CachePolicy, showingCopy: @escaping @Sendable (Fetched<[Recipe]>) -> Void
    ) -> Promise<Fetched<[Recipe]>> {
        if let copy { showingCopy(copy) }
        return mock(
            result: result, model: Fetched(value: [Recipe(name: "Soup", minutes: 30)], source: .network))
    }
}

/// A view that remembers what it was told, in order.
@MainActor
final class RecipeListViewSpy: RecipeListView {
    var events: [String] = []

    func showLoading(_ isLoading: Bool) { events.append("loading \(isLoading)") }
    func showRecipes(_ rows: [String], notice: String?) { events.append("\(rows) \(notice ?? "fresh")") }
    func showError(_ message: String) { events.append("error \(message)") }
}

@Suite("Recipe list presenter")
@MainActor
struct RecipeListPresenterTests {
    let view = RecipeListViewSpy()

    @Test("fresh recipes: loading, the rows, loading ended; the promise settles after")
    func freshRecipes() async {
        // Given
        let presenter = RecipeListPresenter(service: RecipeServiceMock(.success), view: view)

        // When
        let recipes = await PromiseExpectations.value(of: presenter.fetchRecipes())

        // Then
        #expect(recipes == [Recipe(name: "Soup", minutes: 30)])
        #expect(view.events == ["loading true", #"["Soup (30 min)"] fresh"#, "loading false"])
    }

    @Test(
        "when the fetch's promise settles, the view already shows the rows, or the error, and loading ended")
    func viewUpdatedWhenPromiseSettles() async {
        // Given
        let presenter = RecipeListPresenter(service: RecipeServiceMock(.success), view: view)
        let failingView = RecipeListViewSpy()
        let failing = RecipeListPresenter(service: RecipeServiceMock(.error(.noNetwork)), view: failingView)

        // When
        let shown = await PromiseExpectations.seenWhenSettled(presenter.fetchRecipes()) { [view] in
            view.events
        }
        let failed = await PromiseExpectations.seenWhenSettled(failing.fetchRecipes()) { failingView.events }

        // Then
        #expect(shown == ["loading true", #"["Soup (30 min)"] fresh"#, "loading false"])
        #expect(failed?.contains { $0.hasPrefix("error") } == true && failed?.last == "loading false")
    }

    @Test("an error is shown as its sentence, and is what the promise rejects with")
    func error() async {
        // Given
        let presenter = RecipeListPresenter(service: RecipeServiceMock(.error(.noNetwork)), view: view)

        // When
        let error = await PromiseExpectations.error(of: presenter.fetchRecipes())

        // Then
        #expect(error as? ServiceRequestError == .noNetwork)
        #expect(
            view.events == [
                "loading true", "error You are offline. Check your connection and try again.",
                "loading false",
            ])
    }

    @Test("cache then network: the copy with a refreshing notice, then the fresh rows")
    func copyThenFresh() async {
        // Given
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let copy = Fetched(
            value: [Recipe(name: "Stew", minutes: 90)], source: .stored(savedAt: now.addingTimeInterval(-120))
        )
        let presenter = RecipeListPresenter(
            service: RecipeServiceMock(.success, copy: copy), view: view, policy: .cacheThenNetwork,
            notice: SourceNotice(noun: "recipes", now: { now }))

        // When
        _ = await PromiseExpectations.value(of: presenter.fetchRecipes())

        // Then
        #expect(
            view.events == [
                "loading true", #"["Stew (90 min)"] Showing recipes saved 2 minutes ago; refreshing…"#,
                #"["Soup (30 min)"] fresh"#, "loading false",
            ])
    }
}
