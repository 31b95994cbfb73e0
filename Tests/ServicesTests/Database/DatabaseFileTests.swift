import Foundation
import PromiseMVPTesting
import Promises
import Services
import Testing

/// What opening a database makes on disk (`DatabaseFile.swift`): owner-only files, and nothing
/// made where a link to nothing points.
@Suite("Database file")
struct DatabaseFileTests {
    let temporary = TemporaryFolder("DatabaseFileTests")
    var folder: URL { temporary.url }

    var file: URL {
        folder.appendingPathComponent("nested/data/app.sqlite")
    }

    @Test("the -wal and -shm files beside the database are owner-only too")
    func sidecarsOwnerOnly() async throws {
        // Given
        let database = try Database(at: file, migrations: [TestSchema.v1])

        // When
        _ = await PromiseExpectations.value(
            of: database.write { try $0.execute("INSERT INTO songs (title) VALUES (?)", ["Blue"]) })

        // Then
        for suffix in ["", "-wal", "-shm"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path + suffix)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(suffix)")
        }
    }

    @Test("a symbolic link to nothing at the path is refused: no file is made where it points")
    func danglingLinkRefused() throws {
        // Given
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let link = folder.appendingPathComponent("link.sqlite")
        let target = folder.appendingPathComponent("elsewhere.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)

        // When
        let error = #expect(throws: DatabaseError.self) { try Database(at: link) }

        // Then
        #expect(error?.kind == .cannotOpen)
        #expect(error?.description.contains("symbolic link") == true)
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(!FileManager.default.fileExists(atPath: target.path + "-wal"))
    }
}
