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
    func readsWhatItWrote() {
        // Given
        let mutants = MutantFinder.mutants(
            in: Self.source, file: "Sources/Services/Auth/A.swift", module: "Services")
        let text =
            MutationLedger.line(mutants[0], .killed) + MutationLedger.line(mutants[1], .survived) + "surv"

        // When
        let ledger = MutationLedger(text)

        // Then
        #expect(ledger.outcomes.count == 2)
        #expect(ledger.outcomes[MutationLedger.key(of: mutants[0])] == .killed)
        #expect(ledger.outcomes[MutationLedger.key(of: mutants[1])] == .survived)
    }
}
