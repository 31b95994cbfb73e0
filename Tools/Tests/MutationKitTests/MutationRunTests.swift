import Testing

@testable import MutationKit

/// A scratch copy in memory whose "tests" fail when the file holds `caughtWhen`: a mutant that
/// changes something else is the planted survivor.
final class PlantedChecker: MutantChecker {
    var files: [String: String]
    let caughtWhen: String
    private(set) var testRuns: [String?] = []

    init(files: [String: String], caughtWhen: String) {
        self.files = files
        self.caughtWhen = caughtWhen
    }

    func builds() throws -> Bool { files.values.allSatisfy { !$0.contains("!!") } }

    func runTests(_ filter: String?) throws -> TestRun {
        testRuns.append(filter)
        return files.values.contains { $0.contains(caughtWhen) } ? .failed : .passed
    }

    func run(narrowTests: [String] = []) -> MutationRun {
        MutationRun(
            read: { self.files[$0] ?? "" }, write: { self.files[$0] = $1 }, narrowTests: { _ in narrowTests })
    }
}

@Suite("MutationRun")
struct MutationRunTests {
    @Test("a mutant the tests pass on is reported as a survivor; one they fail on as killed")
    func plantedSurvivor() throws {
        // Given: tests that see `a <= b` but nothing that tells `c && d` from `c || d`
        let source = "let x = a < b\nlet y = c && d\n"
        let checker = PlantedChecker(files: ["Sources/M/F.swift": source], caughtWhen: "a <= b")
        let mutants = MutantFinder.mutants(in: source, file: "Sources/M/F.swift", module: "M")
        let comparison = try #require(mutants.first { $0.description == "`<` -> `<=`" })
        let logical = try #require(mutants.first { $0.kind == .logical })

        // When
        let run = checker.run()
        let results = [comparison, logical].map {
            ($0, (try? run.outcome(of: $0, with: checker)) ?? .notCompiled)
        }

        // Then
        #expect(results.map(\.1) == [.killed, .survived])
        #expect(MutationScore.table(MutationScore.scores(results)).contains("| M | 1 | 1 | 0 | 50% |"))
        #expect(checker.files["Sources/M/F.swift"] == source, "every file put back")
    }

    @Test("the nearest tests run first, narrowest first; the whole suite only when they pass")
    func nearestTestsFirst() throws {
        // Given
        let source = "let x = a < b\n"
        let mutant = try #require(
            MutantFinder.mutants(in: source, file: "Sources/M/F.swift", module: "M").first)
        let caught = PlantedChecker(files: ["Sources/M/F.swift": source], caughtWhen: "<=")
        let missed = PlantedChecker(files: ["Sources/M/F.swift": source], caughtWhen: "never")

        // When
        _ = try caught.run(narrowTests: ["MTests\\.(FTests)", "MTests"]).outcome(of: mutant, with: caught)
        _ = try missed.run(narrowTests: ["MTests\\.(FTests)", "MTests"]).outcome(of: mutant, with: missed)

        // Then
        #expect(caught.testRuns == ["MTests\\.(FTests)"])
        #expect(missed.testRuns == ["MTests\\.(FTests)", "MTests", nil])
    }

    @Test("a mutant that does not compile runs no test and is counted apart")
    func notCompiled() throws {
        // Given: a copy that fails to build while the mutant is in it
        let checker = PlantedChecker(files: ["Sources/M/F.swift": "let x = a\n"], caughtWhen: "a")
        let mutant = Mutant(
            file: "Sources/M/F.swift", module: "M", line: 1, offset: 8, length: 1, replacement: "!!",
            kind: .negation, description: "planted")

        // When
        let outcome = try checker.run().outcome(of: mutant, with: checker)

        // Then
        #expect(outcome == .notCompiled)
        #expect(checker.testRuns.isEmpty)
    }
}
