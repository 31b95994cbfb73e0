import Foundation
import PromiseMVPTesting
import Promises
import Services
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    @Test("an open database holds one descriptor of its file, SQLite's: the one that made the file is closed")
    func oneDescriptorOpen() throws {
        // Given: a database on a new file, which the open made
        let database = try Database(at: file, migrations: [TestSchema.v1])

        // Then
        withExtendedLifetime(database) {
            #expect(Self.descriptors(of: file.path) == 1)
        }
    }

    /// How many of this process's file descriptors name the file at `path`.
    static func descriptors(of path: String) -> Int {
        guard let wanted = realpath(path, nil) else { return 0 }
        defer { free(wanted) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        return (0..<getdtablesize()).filter { descriptor in
            #if canImport(Darwin)
                guard fcntl(descriptor, F_GETPATH, &buffer) != -1 else { return false }
                guard let named = realpath(buffer, nil) else { return false }
                defer { free(named) }
                return strcmp(named, wanted) == 0
            #else
                let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
                guard count > 0 else { return false }
                buffer[count] = 0
                return strcmp(buffer, wanted) == 0
            #endif
        }.count
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

    @Test("a folder that cannot be made is a clear error; the folders it made go, those that were there stay")
    func folderNotMade() throws {
        // Given: an empty folder that exists, and a path under it with a name too long for a folder
        let existing = folder.appendingPathComponent("existing")
        try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: true)
        let url = existing.appendingPathComponent("new").appendingPathComponent(
            String(repeating: "f", count: 300)
        )
        .appendingPathComponent("app.sqlite")

        // When
        let error = #expect(throws: DatabaseError.self) { try Database(at: url) }

        // Then
        #expect(error?.kind == .cannotOpen)
        #expect(error?.message.hasPrefix("cannot create folder") == true)
        #expect(!FileManager.default.fileExists(atPath: existing.appendingPathComponent("new").path))
        #expect(FileManager.default.fileExists(atPath: existing.path))
    }

    @Test("a file that cannot be made is a clear error naming why")
    func fileNotMade() throws {
        // Given: a file name too long for the system
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(String(repeating: "f", count: 300) + ".sqlite")

        // When
        let error = #expect(throws: DatabaseError.self) { try Database(at: url) }

        // Then
        #expect(error?.kind == .cannotOpen)
        #expect(error?.message.hasPrefix("cannot create the file:") == true, "\(String(describing: error))")
    }
    @Test(
        "an open that fails after making the file removes that empty file; an empty file that was there stays",
        arguments: [false, true])
    func failedOpenRemovesTheFileItMade(fileWasThere: Bool) throws {
        // Given: a folder where the WAL file cannot be made (a folder holds its name), so the
        // open fails after the database file was made, and before anything was written to it
        let url = folder.appendingPathComponent("app.sqlite")
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: url.path + "-wal"), withIntermediateDirectories: true)
        if fileWasThere {
            try #require(FileManager.default.createFile(atPath: url.path, contents: Data()))
        }

        // When
        let error = #expect(throws: DatabaseError.self) { try Database(at: url) }

        // Then
        #expect(error?.description.contains("disk I/O error") == true, "\(String(describing: error))")
        #expect(FileManager.default.fileExists(atPath: url.path) == fileWasThere)
        #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))
    }
}
