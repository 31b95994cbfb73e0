/// The test filters nearest a mutant's file, narrowest first: what a run tries before the whole
/// suite (``MutationRun/narrowTests``).
///
/// The package's tests mirror its sources (`Tests/OfflineKitTests/Outbox/` holds the tests of
/// `Sources/OfflineKit/Outbox/`, each file named after its suite), so the suites of the mirrored
/// folder are the ones most likely to fail on a mutant of that folder, and they run in seconds.
public struct NearestTests: Sendable {
    /// Every test file, by path relative to the package's root (`Tests/OfflineKitTests/Outbox/OutboxTests.swift`).
    public let testFiles: [String]
    /// Whether the run is limited to a suite of its own (`--filter`): the module's test target is
    /// then not run on its own, as the suite holds it.
    public let suiteGiven: Bool
    /// Test targets named by the run (`--tests-of`) for modules whose names do not say theirs:
    /// `PromiseMVPTestServer`, re-exported and tested with `PromiseMVPTesting`, by
    /// `PromiseMVPTestingTests`.
    public let targets: [String: String]

    /// Filters for the tests in `testFiles`.
    ///
    /// - Parameters:
    ///   - testFiles: Every test file, relative to the package's root.
    ///   - suiteGiven: Whether the run has a suite of its own.
    ///   - targets: The test target of a module, where its name does not say it.
    public init(testFiles: [String], suiteGiven: Bool, targets: [String: String] = [:]) {
        self.testFiles = testFiles
        self.suiteGiven = suiteGiven
        self.targets = targets
    }

    /// The module's test target: the one the run named for it, else `ServicesTests` for
    /// `Services`, `MelodiesTests` for `MelodiesTesting`; `nil` when it has none.
    public func target(of module: String) -> String? {
        if let named = targets[module] { return named }
        let tested = module.hasSuffix("Testing") ? String(module.dropLast("Testing".count)) : module
        return [module + "Tests", tested + "Tests"].first { target in
            testFiles.contains { $0.hasPrefix("Tests/" + target + "/") }
        }
    }

    /// The filters for `mutant`: the suites of the mirrored test folder, then (without a suite of
    /// the run's own) the module's test target.
    public func filters(for mutant: Mutant) -> [String] {
        guard let target = target(of: mutant.module) else { return [] }
        let folder = mutant.file.split(separator: "/").dropFirst(2).dropLast().joined(separator: "/")
        let prefix = "Tests/" + target + "/" + (folder.isEmpty ? "" : folder + "/")
        let suites = Set(
            testFiles.compactMap { path -> String? in
                guard path.hasPrefix(prefix), path.hasSuffix(".swift") else { return nil }
                let name = path.dropFirst(prefix.count)
                guard !name.contains("/") else { return nil }
                return String(name.dropLast(".swift".count).prefix { $0 != "+" })
            })
        var filters: [String] = []
        if !suites.isEmpty {
            filters.append(target + "\\.(" + suites.sorted().joined(separator: "|") + ")")
        }
        if !suiteGiven { filters.append(target) }
        return filters
    }
}
