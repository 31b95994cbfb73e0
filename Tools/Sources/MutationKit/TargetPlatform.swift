import SwiftIfConfig
import SwiftSyntax

/// The platform the mutated code is built and tested for, as `#if` sees it: mutants are made in
/// the clauses this platform compiles only. A mutant in code the build leaves out can never be
/// caught, and would be counted as a survivor (the Combine bridge on Linux, say).
public struct TargetPlatform: Sendable {
    /// The operating system `os(…)` names, such as `Linux` or `macOS`.
    public let os: String
    /// The modules `canImport(…)` finds.
    public let importable: Set<String>
    /// The conditions set with `-D`.
    public let conditions: Set<String>

    /// A platform.
    ///
    /// - Parameters:
    ///   - os: The operating system `os(…)` names.
    ///   - importable: The modules `canImport(…)` finds.
    ///   - conditions: The conditions set with `-D`.
    public init(os: String, importable: Set<String>, conditions: Set<String> = []) {
        self.os = os
        self.importable = importable
        self.conditions = conditions
    }

    /// Linux with the Swift toolchain's modules: Foundation's networking and Glibc, no Apple
    /// frameworks.
    public static let linux = TargetPlatform(
        os: "Linux",
        importable: [
            "Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Dispatch",
            "Synchronization", "XCTest", "Testing", "SQLite3",
        ])

    /// macOS with the frameworks this package's sources ask for.
    public static let macOS = TargetPlatform(
        os: "macOS",
        importable: [
            "Foundation", "Darwin", "Dispatch", "Synchronization", "XCTest", "Testing", "SQLite3",
            "Combine", "Security", "Network", "os",
        ])

    /// The platform this tool runs on, which is the one its test runs build for.
    public static var host: TargetPlatform {
        #if os(Linux)
            .linux
        #else
            .macOS
        #endif
    }

    /// How `#if` sees this platform.
    var configuration: some BuildConfiguration { Configuration(platform: self) }
}

/// ``TargetPlatform`` answering `#if`'s questions.
private struct Configuration: BuildConfiguration {
    let platform: TargetPlatform

    func isCustomConditionSet(name: String) -> Bool { platform.conditions.contains(name) }
    func hasFeature(name: String) -> Bool { false }
    func hasAttribute(name: String) -> Bool { true }
    func canImport(importPath: [(TokenSyntax, String)], version: CanImportVersion) -> Bool {
        importPath.first.map { platform.importable.contains($0.1) } ?? false
    }
    func isActiveTargetOS(name: String) -> Bool { name == platform.os }
    func isActiveTargetArchitecture(name: String) -> Bool { name == "x86_64" || name == "arm64" }
    func isActiveTargetEnvironment(name: String) -> Bool { false }
    func isActiveTargetRuntime(name: String) -> Bool { name == (platform.os == "Linux" ? "native" : "_ObjC") }
    func isActiveTargetPointerAuthentication(name: String) -> Bool { false }
    func isActiveTargetObjectFormat(name: String) -> Bool {
        name == (platform.os == "Linux" ? "ELF" : "MachO")
    }
    var targetPointerBitWidth: Int { 64 }
    var targetAtomicBitWidths: [Int] { [8, 16, 32, 64] }
    var endianness: Endianness { .little }
    var languageVersion: VersionTuple { VersionTuple(6) }
    var compilerVersion: VersionTuple { VersionTuple(6, 2) }
}
