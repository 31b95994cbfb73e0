import Foundation
import Testing

/// Every public type is in its module's catalog, in a topic a reader finds it under, rather than
/// in the group DocC makes of what nobody placed.
@Suite("Catalogs place every public type")
struct CatalogTopicsTests {
    static let modules = [
        "Promises", "Services", "OfflineKit", "Melodies", "Orders", "PromiseMVPTesting",
        "PromiseMVPTestServer",
        "MelodiesTesting", "OrdersTesting",
    ]

    @Test("each public type of the module is linked from its catalog", arguments: modules)
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Regex
    func everyPublicTypeIsPlaced(module: String) throws {
        // Given
        let catalog = try FileManager.default.contentsOfDirectory(
            atPath: Documents.root.appendingPathComponent("Sources/\(module)/\(module).docc").path
        ).filter { $0.hasSuffix(".md") }.map { try Documents.text("Sources/\(module)/\(module).docc/" + $0) }
            .joined()

        // When
        let types = try Documents.swiftFiles(under: ["Sources/" + module]).flatMap { path in
            try Documents.text(path).matches(
                of: /\npublic (?:final )?(?:class|struct|enum|protocol|actor|typealias) ([A-Z]\w*)/
            )
            .map { String($0.1) }
        }

        // Then
        let unplaced = Set(types).filter { type in
            !["``\(type)``", "``\(type)/", "``\(type)-"].contains { catalog.contains($0) }
        }
        #expect(!types.isEmpty)
        #expect(unplaced.isEmpty, "\(module)'s catalog does not place \(unplaced.sorted())")
    }
}
