import Foundation
import Testing

/// The rules CONTRIBUTING.md states about the tree, checked where they can be: one lock, and
/// tests in the folders of the sources they test.
@Suite("House rules")
struct HouseRulesTests {
    /// The test folders that mirror no source folder, each with CONTRIBUTING's reason.
    static let foldersOfTheirOwn: Set = [
        "DemoTests/Fixtures",  // database files made by earlier versions, read by the tests
        "OfflineKitTests/SignedIn",  // the kit with the sign-in of `Services`: both modules at once
    ]

    @Test("no lock but the package's: no NSLock, Mutex or platform lock outside LockOperations.swift")
    func oneLock() throws {
        // Given
        let others = ["NSLock", "NSRecursiveLock", "Mutex<", "os_unfair_lock", "pthread_mutex"]

        // When
        let found = try Documents.swiftFiles(under: ["Sources", "Examples"])
            .filter { !$0.hasSuffix("/LockOperations.swift") }
            .flatMap { path in
                let text = try Documents.text(path)
                return others.filter { text.contains($0) }.map { "\(path): \($0)" }
            }

        // Then
        #expect(found.isEmpty, "\(found)")
    }

    @Test("every folder of a test target is a folder of its module's sources")
    func testFoldersMirrorSources() throws {
        // Given
        let targets = try FileManager.default.contentsOfDirectory(
            at: Documents.root.appendingPathComponent("Tests"), includingPropertiesForKeys: nil
        )
        .map(\.lastPathComponent).filter { $0.hasSuffix("Tests") }

        // When
        let strays = targets.flatMap { target in
            let module = String(target.dropLast("Tests".count))
            return Self.folders(under: "Tests/\(target)").filter { folder in
                !Self.foldersOfTheirOwn.contains("\(target)/\(folder)")
                    && !Documents.exists("Sources/\(module)/\(folder)")
                    && !Documents.exists("Examples/\(module)/\(folder)")
            }
            .map { "Tests/\(target)/\($0)" }
        }

        // Then
        #expect(targets.count >= 10)
        #expect(strays.isEmpty, "\(strays)")
    }

    @Test(
        "a test named after a source file sits in that file's folder",
        arguments: ["Promises", "Orders", "Services", "OfflineKit"])
    func testsBesideTheirSources(module: String) throws {
        // Given: each source file's folder, by its type's name (`Promise+Map.swift` is `PromiseMap`).
        var folderOf: [String: String] = [:]
        for path in Documents.swiftFiles(under: ["Sources/\(module)"]) {
            let parts = path.split(separator: "/").dropFirst(2)
            let name = parts.last?.replacingOccurrences(of: "+", with: "").replacingOccurrences(
                of: ".swift", with: "")
            if let name { folderOf[name] = parts.dropLast().joined(separator: "/") }
        }

        // When
        let tests = Documents.swiftFiles(under: ["Tests/\(module)Tests"])
        let misplaced = tests.compactMap { path -> String? in
            let parts = path.split(separator: "/").dropFirst(2)
            guard let file = parts.last, file.hasSuffix("Tests.swift"),
                let folder = folderOf[String(file.dropLast("Tests.swift".count))]
            else { return nil }
            let testFolder = parts.dropLast().joined(separator: "/")
            return testFolder == folder ? nil : "\(path): the source is in \(folder)"
        }

        // Then
        #expect(tests.count >= 10)
        #expect(misplaced.isEmpty, "\(misplaced)")
    }

    /// Every folder under `path`, by path from it.
    private static func folders(under path: String) -> [String] {
        let base = Documents.root.appendingPathComponent(path)
        let enumerator = FileManager.default.enumerator(
            at: base, includingPropertiesForKeys: [.isDirectoryKey])
        return (enumerator?.allObjects as? [URL] ?? []).compactMap { url in
            guard (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true else {
                return nil
            }
            return String(url.standardizedFileURL.path.dropFirst(base.standardizedFileURL.path.count + 1))
        }
    }
}
