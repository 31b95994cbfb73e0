import Foundation
import Testing

/// The modules' layers as the README's table states them: `Services` is usable without the offline
/// kit, and the screens that only read with a fallback (Melodies, Recipes) are built without it.
@Suite("Module layers")
struct ModuleLayersTests {
    /// The targets `target` depends on, as `Package.swift` declares them.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Regex
    static func dependencies(of target: String) throws -> [String] {
        let manifest = try Documents.text("Package.swift")
        let declared = manifest.matches(of: /name: "(\w+)",\s*dependencies: \[([^\]]*)\]/)
            .first { $0.1 == target }
        return (declared.map { String($0.2) } ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \n\"")) }
            .filter { !$0.isEmpty }
    }

    @Test(
        "Services, Melodies and Recipes do not depend on the offline kit; the kit depends on Services",
        arguments: ["Services", "Melodies", "Recipes", "PromiseMVPTesting", "PromiseMVPTestServer"])
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Regex
    func withoutTheKit(target: String) throws {
        // When
        let dependencies = try Self.dependencies(of: target)

        // Then
        #expect(!dependencies.isEmpty)
        #expect(!dependencies.contains("OfflineKit"), "\(target): \(dependencies)")
        #expect(try Self.dependencies(of: "OfflineKit").contains("Services"))
    }

    @Test("no file of Services names a type of the offline kit in code")
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Regex
    func servicesNamesNoKitType() throws {
        // Given
        let kitTypes = try Documents.swiftFiles(under: ["Sources/OfflineKit"]).flatMap { path in
            try Documents.text(path).matches(
                of: /\npublic (?:final )?(?:class|struct|enum|protocol|actor|typealias) ([A-Z]\w*)/
            )
            .map { String($0.1) }
        }

        // When
        let named = try Documents.swiftFiles(under: ["Sources/Services"]).flatMap { path in
            try Documents.text(path).split(separator: "\n")
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .flatMap { line in kitTypes.filter { line.contains($0) }.map { "\(path): \($0)" } }
        }

        // Then
        #expect(!kitTypes.isEmpty)
        #expect(named.isEmpty, "\(named)")
    }
}
