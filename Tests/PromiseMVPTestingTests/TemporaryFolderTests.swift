import Foundation
import PromiseMVPTesting
import Testing

/// A test's folder goes with its last reference, whatever is in it.
@Suite("TemporaryFolder")
struct TemporaryFolderTests {
    @Test("the folder and what is in it are removed when the last reference goes")
    func removedWithItsLastReference() throws {
        // Given: a folder with a file in it
        var folder: TemporaryFolder? = TemporaryFolder("TemporaryFolderTests")
        let url = try #require(folder?.url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data("milk".utf8).write(to: url.appendingPathComponent("list.txt"))
        #expect(FileManager.default.fileExists(atPath: url.path))

        // When
        folder = nil

        // Then
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
