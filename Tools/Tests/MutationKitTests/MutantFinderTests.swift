import MutationKit
import Testing

/// The mutants found in small sources, and what applying them writes.
@Suite("MutantFinder")
struct MutantFinderTests {
    func mutants(_ source: String) -> [Mutant] {
        MutantFinder.mutants(in: source, file: "Sources/M/F.swift", module: "M")
    }

    @Test("comparison, logical, arithmetic and range operators are each replaced once, on their line")
    func operators() {
        // Given
        let source = """
            func f(a: Int, b: Int) -> Bool {
                a < b && a + 1 >= b || (0..<a).isEmpty
            }
            """

        // When
        let found = mutants(source)

        // Then
        #expect(
            found.map(\.description) == [
                "`<` -> `<=`", "`&&` -> `||`", "`+` -> `-`", "`>=` -> `>`", "`||` -> `&&`", "`..<` -> `...`",
            ])
        #expect(found.allSatisfy { $0.line == 2 && $0.module == "M" })
        #expect(found[0].applied(to: source).contains("a <= b && a + 1 >= b"))
        #expect(found[5].applied(to: source).contains("(0...a)"))
    }

    @Test("a negation, a returned constant, a lone call, an if body and a guard each give their mutant")
    func statements() {
        // Given
        let source = """
            func g(done: Bool) -> Bool {
                guard !done else { return true }
                save()
                if done { log("x") }
                return false
            }
            """

        // When
        let found = mutants(source)
        let byKind = Dictionary(grouping: found, by: \.kind)

        // Then
        #expect(byKind[.negation]?.first?.applied(to: source).contains("guard done else") == true)
        #expect(
            byKind[.constant]?.map(\.description) == [
                "`return true` -> `return false`", "`return false` -> `return true`",
            ])
        #expect(byKind[.removedGuard]?.first?.applied(to: source).contains("guard") == false)
        #expect(byKind[.removedCall]?.map(\.line) == [3, 4])
        #expect(byKind[.removedCall]?.first?.applied(to: source).contains("save()") == false)
        #expect(byKind[.removedIfBody]?.first?.applied(to: source).contains("if done {}") == true)
    }

    @Test("two unlabelled arguments are swapped; labelled or equal ones are not")
    func swappedArguments() {
        // Given
        let source = """
            let a = max(x, y)
            let b = f(at: x, y)
            let c = min(x, x)
            """

        // When
        let swapped = mutants(source).filter { $0.kind == .swappedArguments }

        // Then
        #expect(swapped.count == 1)
        #expect(swapped.first?.applied(to: source).hasPrefix("let a = max(y, x)") == true)
    }

    @Test(
        "no mutant that cannot compile: a binding guard, an implicit return, strings joined, unlike arguments"
    )
    func skipsWhatCannotCompile() {
        // Given: each place a syntactic change would leave code the compiler refuses
        let source = """
            func h(o: Int?) -> Int {
                guard let v = o else { return 0 }
                return v
            }
            var name: String { make() }
            func k() -> Int { count() }
            let p = path + "/x"
            let q = f(.cancel, .notFound(id: 1))
            """

        // When
        let kinds = Set(mutants(source).map(\.kind))

        // Then
        #expect(!kinds.contains(.removedGuard))
        #expect(!kinds.contains(.removedCall))
        #expect(!kinds.contains(.arithmetic))
        #expect(!kinds.contains(.swappedArguments))
    }

    @Test("comments, documentation and strings give no mutant")
    func skipsCommentsAndStrings() {
        // Given: operators and calls only in a comment, a doc comment and a string
        let source = """
            /// Returns `a < b && !c`, then save().
            // if x == y { log() }
            let text = "a < b || c != d; save()"
            """

        // Then
        #expect(mutants(source).isEmpty)
    }

    @Test("a mutant changes only its bytes, with text before it that is not ASCII")
    func appliedAfterNonASCII() {
        // Given
        let source = "let café = \"é\" == s\n"

        // When
        let mutant = mutants(source).first { $0.kind == .comparison }

        // Then
        #expect(mutant?.applied(to: source) == "let café = \"é\" != s\n")
    }
}

@Suite("MutationScore")
struct MutationScoreTests {
    @Test("the score is caught over caught and survived; mutants that do not compile are apart")
    func score() {
        // Given
        let mutant = MutantFinder.mutants(in: "let a = b < c\n", file: "Sources/M/F.swift", module: "M")[0]

        // When
        let scores = MutationScore.scores([
            (mutant, .killed), (mutant, .timedOut), (mutant, .survived), (mutant, .notCompiled),
            (mutant, .killed),
        ])

        // Then
        #expect(scores.count == 1)
        #expect(scores[0].percent == 75)
        #expect(MutationScore.table(scores).contains("| M | 3 | 1 | 1 | 75% |"))
    }

    @Test("the same seed picks the same sample, at most N per module, the modules taking turns")
    func sample() {
        // Given
        let source = (0..<30).map { "let v\($0) = a < b" }.joined(separator: "\n")
        let found =
            MutantFinder.mutants(in: source, file: "Sources/M/F.swift", module: "M")
            + MutantFinder.mutants(in: "let w = a > b\n", file: "Sources/N/G.swift", module: "N")

        // When
        let first = MutantSample.pick(found, perModule: 5, seed: 7)
        let second = MutantSample.pick(found, perModule: 5, seed: 7)

        // Then
        #expect(first == second)
        #expect(first.filter { $0.module == "M" }.count == 5 && first.filter { $0.module == "N" }.count == 1)
        #expect(first.prefix(2).map(\.module) == ["M", "N"], "a budget that stops early still reaches N")
    }
}

/// Mutants in the code a platform compiles only.
@Suite("MutantFinder and #if")
struct MutantFinderPlatformTests {
    static let source = """
        #if canImport(Combine)
        let a = b < c
        #elseif os(Linux)
        let d = e > f
        #else
        let g = h == i
        #endif
        let j = k != l
        """

    @Test("on Linux, the Combine clause is skipped and the Linux one mutated")
    func linuxClauses() {
        // When
        let found = MutantFinder.mutants(
            in: Self.source, file: "Sources/M/F.swift", module: "M", platform: .linux)

        // Then
        #expect(found.map(\.line) == [4, 8])
    }

    @Test("on macOS, the Combine clause is mutated and the others skipped")
    func macOSClauses() {
        // When
        let found = MutantFinder.mutants(
            in: Self.source, file: "Sources/M/F.swift", module: "M", platform: .macOS)

        // Then
        #expect(found.map(\.line) == [2, 8])
    }
}
