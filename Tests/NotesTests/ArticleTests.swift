import Foundation
import Testing

/// The "Adding an editable offline screen" article prints the `Notes` target's files and its
/// tests: this suite checks it prints them as they are compiled, and that the feature stays small.
@Suite("Adding an editable offline screen article")
struct NotesArticleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized

    @Test(
        "the article shows each file of the feature and its tests, word for word",
        arguments: [
            "Examples/Notes/Note.swift", "Examples/Notes/NoteListView.swift",
            "Examples/Notes/NoteListPresenter.swift", "Tests/NotesTests/NoteListPresenterTests.swift",
        ])
    func articleShowsTheFile(path: String) throws {
        // Given
        let article = try String(
            contentsOf: Self.root.appendingPathComponent(
                "Sources/Services/Services.docc/AddingAnEditableOfflineScreen.md"),
            encoding: .utf8)

        // When
        let file = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)

        // Then
        #expect(article.contains("```swift\n" + file + "```"))
    }

    @Test("the feature itself (model, view, presenter) is at most 120 lines of code")
    func featureIsSmall() throws {
        // Given
        let folder = Self.root.appendingPathComponent("Examples/Notes")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".swift")
        }

        // When
        let lines = try files.flatMap { name in
            try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: true)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("//") }
        }

        // Then
        #expect(files.count == 3)
        #expect(lines.count <= 120, "\(lines.count) lines")
    }
}
