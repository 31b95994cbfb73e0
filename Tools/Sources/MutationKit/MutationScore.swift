/// What became of a mutant once the tests ran against it.
public enum Outcome: String, Sendable {
    /// A test failed: the change was caught.
    case killed
    /// The tests ran past their time (a hang the change made): caught too.
    case timedOut
    /// Every test passed: a gap.
    case survived
    /// The change does not compile: counted apart, never as caught.
    case notCompiled
}

/// One module's figures.
public struct MutationScore: Sendable, Equatable {
    /// The module, as the folder under `Sources` names it.
    public let module: String
    /// Mutants a test failed on.
    public var killed = 0
    /// Mutants the tests ran past their time on.
    public var timedOut = 0
    /// Mutants every test passed on.
    public var survived = 0
    /// Mutants that did not compile.
    public var notCompiled = 0

    /// A module with nothing counted yet.
    ///
    /// - Parameter module: The module.
    public init(module: String) {
        self.module = module
    }

    /// Caught over caught and survived, in percent; `nil` when none of either.
    public var percent: Double? {
        let caught = killed + timedOut
        return caught + survived == 0 ? nil : Double(caught) * 100 / Double(caught + survived)
    }

    /// The scores of `results`, one per module, sorted by module.
    public static func scores(_ results: [(Mutant, Outcome)]) -> [MutationScore] {
        var scores: [String: MutationScore] = [:]
        for (mutant, outcome) in results {
            var score = scores[mutant.module] ?? MutationScore(module: mutant.module)
            switch outcome {
            case .killed: score.killed += 1
            case .timedOut: score.timedOut += 1
            case .survived: score.survived += 1
            case .notCompiled: score.notCompiled += 1
            }
            scores[mutant.module] = score
        }
        return scores.values.sorted { $0.module < $1.module }
    }

    /// The scores as a Markdown table.
    public static func table(_ scores: [MutationScore]) -> String {
        var lines = [
            "| module | caught | survived | did not compile | score |", "| --- | --- | --- | --- | --- |",
        ]
        for score in scores {
            let percent = score.percent.map { String(Int($0.rounded())) + "%" } ?? "-"
            lines.append(
                "| \(score.module) | \(score.killed + score.timedOut) | \(score.survived) | \(score.notCompiled) | \(percent) |"
            )
        }
        return lines.joined(separator: "\n")
    }
}

/// A repeatable sample: the same seed picks the same mutants.
public enum MutantSample {
    /// At most `count` of `mutants` per module, picked with `seed`, the modules taking turns.
    public static func pick(_ mutants: [Mutant], perModule count: Int, seed: UInt64) -> [Mutant] {
        var generator = SplitMix64(seed: seed)
        let perModule = Dictionary(grouping: mutants, by: \.module).sorted { $0.key < $1.key }.map {
            _, found in
            Array(found.shuffled(using: &generator).prefix(count))
        }
        // Taken in turns, one module after another, so that a run its budget cuts short still
        // measures every module.
        return (0..<(perModule.map(\.count).max() ?? 0)).flatMap { turn in
            perModule.compactMap { turn < $0.count ? $0[turn] : nil }
        }
    }
}

/// SplitMix64: small, and the same numbers on every platform.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
