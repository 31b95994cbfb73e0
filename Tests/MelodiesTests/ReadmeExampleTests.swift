import Foundation
import Testing

/// The README's screen test is printed as a whole file: this suite compiles that very file
/// (`MelodyScreenTests.swift`) and checks the README still prints it unchanged.
@Suite("README example")
struct ReadmeExampleTests {
    @Test("the README's test example is MelodyScreenTests.swift, word for word")
    func readmeShowsTheCompiledFile() throws {
        // Given
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let readme = try String(
            contentsOf: here.appendingPathComponent("../../README.md").standardized, encoding: .utf8)
        let file = try String(
            contentsOf: here.appendingPathComponent("MelodyScreenTests.swift"), encoding: .utf8)

        // When
        let start = try #require(readme.range(of: "```swift\nimport MelodiesTesting\n"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let printed = readme[readme.index(start.lowerBound, offsetBy: "```swift\n".count)..<end.lowerBound]

        // Then
        #expect(String(printed) == file)
    }

    @Test("every other Swift block of the README says it is a fragment")
    func otherBlocksAreMarkedAsFragments() throws {
        // Given
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let readme = try String(
            contentsOf: here.appendingPathComponent("../../README.md").standardized, encoding: .utf8)

        // When
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst()

        // Then
        #expect(!blocks.isEmpty)
        for block in blocks where !block.hasPrefix("import MelodiesTesting\n") {
            #expect(block.hasPrefix("// A fragment"), "\(block.prefix(80))")
        }
    }
}
