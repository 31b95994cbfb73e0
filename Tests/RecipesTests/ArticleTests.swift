import Foundation
import Testing

/// The "Adding a screen" article prints the `Recipes` target's files and its tests: this suite
/// checks it prints them as they are compiled.
@Suite("Adding a screen article")
struct ArticleTests {
    @Test(
        "the article shows each file of the feature and its tests, word for word",
        arguments: [
            "Examples/Recipes/Recipe.swift", "Examples/Recipes/RecipeService.swift",
            "Examples/Recipes/RecipeListView.swift", "Examples/Recipes/RecipeListPresenter.swift",
            "Tests/RecipesTests/RecipeListPresenterTests.swift",
        ])
    func articleShowsTheFile(path: String) throws {
        // Given
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../..").standardized
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/Services/Services.docc/AddingAScreen.md"),
            encoding: .utf8)

        // When
        let file = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)

        // Then
        #expect(article.contains("```swift\n" + file + "```"))
    }

    @Test("the feature itself (model, service, view, presenter) is at most 80 lines of code")
    func featureIsSmall() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/Recipes").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".swift")
        }
        let lines = try files.flatMap { name in
            try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: true)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("//") }
        }
        #expect(files.count == 4)
        #expect(lines.count <= 80, "\(lines.count) lines")
    }
}
