import Testing

@testable import MutationKit

/// A run by folder, every mutant, written down as it goes and picked up where it stopped.
@Suite("MutationLedger")
struct MutationLedgerTests {
    static let source = """
        func isReady(_ count: Int) -> Bool {
            return count > 0 && count < 10
        }
        """

    @Test("a path keeps every mutant of the files under it, and no other")
    func pathKeepsItsFiles() {
        // Given
        let auth = MutantFinder.mutants(
            in: Self.source, file: "Sources/Services/Auth/A.swift", module: "Services")
        let other = MutantFinder.mutants(
            in: Self.source, file: "Sources/Services/HTTP/B.swift", module: "Services")

        // When
        let kept = MutationLedger.under(["Sources/Services/Auth/"], auth + other)

        // Then
        #expect(!auth.isEmpty && !other.isEmpty)
        #expect(kept == auth)
    }

    @Test("outcomes written line by line are read back; a line cut short is skipped")
    func readsWhatItWrote() throws {
        // Given
        let mutants = MutantFinder.mutants(
            in: Self.source, file: "Sources/Services/Auth/A.swift", module: "Services")
        let keys = MutationLedger.keys(of: mutants)
        let (first, second) = (try #require(keys[mutants[0]]), try #require(keys[mutants[1]]))
        let text = MutationLedger.line(first, .killed) + MutationLedger.line(second, .survived) + "surv"

        // When
        let ledger = MutationLedger(text)

        // Then
        #expect(ledger.outcomes.count == 2)
        #expect(ledger.outcomes[first] == .killed)
        #expect(ledger.outcomes[second] == .survived)
    }

    @Test("two mutants alike on one line have keys of their own, so each keeps its outcome")
    func mutantsAlikeOnOneLineKeepTheirOwnOutcomes() throws {
        // Given: two `-` on one line, each made `+`
        let mutants = MutantFinder.mutants(
            in: "func last(_ total: Int) -> Int { min(total - 1, total - 1) }\n",
            file: "Sources/Services/A.swift", module: "Services"
        ).filter { $0.kind == .arithmetic }
        let keys = MutationLedger.keys(of: mutants)

        // When: one caught, the other not
        let ledger = MutationLedger(
            MutationLedger.line(try #require(keys[mutants[0]]), .killed)
                + MutationLedger.line(try #require(keys[mutants[1]]), .survived))

        // Then
        #expect(mutants.count == 2)
        #expect(keys[mutants[0]] == "Sources/Services/A.swift:1: `-` -> `+`")
        #expect(keys[mutants[1]] == "Sources/Services/A.swift:1: `-` -> `+` (2)")
        #expect(ledger.outcomes.count == 2)
        #expect(ledger.outcomes[keys[mutants[1]] ?? ""] == .survived)
    }
}
