import Foundation
import Testing

/// The articles that build a feature print its files and tests: each is the file as compiled,
/// word for word.
@Suite("Articles print their code as compiled")
struct ArticleCodeTests {
    static let printed: [(article: String, file: String)] = [
        ("AddingAScreen.md", "Examples/Recipes/Recipe.swift"),
        ("AddingAScreen.md", "Examples/Recipes/RecipeService.swift"),
        ("AddingAScreen.md", "Examples/Recipes/RecipeListView.swift"),
        ("AddingAScreen.md", "Examples/Recipes/RecipeListPresenter.swift"),
        ("AddingAScreen.md", "Tests/RecipesTests/RecipeListPresenterTests.swift"),
        ("AddingAScreen.md", "Tests/RecipesTests/LiveRecipeServiceTests.swift"),
        ("AddingAnEditableOfflineScreen.md", "Examples/Notes/Note.swift"),
        ("AddingAnEditableOfflineScreen.md", "Examples/Notes/NoteListView.swift"),
        ("AddingAnEditableOfflineScreen.md", "Examples/Notes/NoteListPresenter.swift"),
        ("AddingAnEditableOfflineScreen.md", "Tests/NotesTests/NoteListPresenterTests.swift"),
        ("RelatedRecords.md", "Tests/OfflineKitTests/Offline/ProjectsAndTasks.swift"),
        ("RelatedRecords.md", "Tests/OfflineKitTests/Sync/RelatedCollectionsAPITests.swift"),
        ("AskingTheCopy.md", "Tests/OfflineKitTests/Query/AskingTheCopyTests.swift"),
        ("ChangesAsTheyHappen.md", "Tests/OfflineKitTests/Sync/ChangesAsTheyHappenTests.swift"),
        ("FilesOffline.md", "Tests/OfflineKitTests/Files/FilesOfflineTests.swift"),
    ]

    @Test("the article shows the file word for word", arguments: printed)
    func articleShowsTheFile(article: String, file: String) throws {
        // Given
        let catalog =
            article == "AddingAScreen.md" ? "Services/Services.docc/" : "OfflineKit/OfflineKit.docc/"
        let text = try Documents.text("Sources/" + catalog + article)

        // When
        let code = try Documents.text(file)

        // Then
        #expect(text.contains("```swift\n" + code + "```"), "\(article) does not print \(file) as it is")
    }

    @Test(
        "the Notes and Tasks features (model, view, presenter) are at most 120 lines of code each, as the article says; Tasks' project screen adds one file of at most 40",
        arguments: [("Examples/Notes", 3, 120), ("Examples/Tasks", 4, 160)])
    func featureIsSmall(folder: String, fileCount: Int, lineCap: Int) throws {
        // Given
        let files = Documents.swiftFiles(under: [folder])

        // When
        let lines = try files.flatMap { path in
            try Documents.text(path).split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("//") }
        }

        // Then
        #expect(files.count == fileCount)
        #expect(lines.count <= lineCap, "\(lines.count) lines")
    }
}
