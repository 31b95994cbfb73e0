/// The outcomes of a run written down as they come, one line each, so that a run stopped by its
/// budget (or killed) goes on where it stopped: `outcome<TAB>file:line: description`.
public struct MutationLedger: Sendable {
    /// The outcome of each mutant already run, by its key (``keys(of:)``).
    public private(set) var outcomes: [String: Outcome] = [:]

    /// Reads a ledger's text; lines it cannot read are skipped (a line cut short by a kill).
    ///
    /// - Parameter text: The file's text, empty for a new run.
    public init(_ text: String) {
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, let outcome = Outcome(rawValue: String(parts[0])) else { continue }
            outcomes[String(parts[1])] = outcome
        }
    }

    /// What names each of `mutants` in a ledger: its file, line and change, and for a mutant the
    /// same as one before it on its line (two `-` made `+` on one line), its rank after that:
    /// `file:line: description (2)`. Keys name one mutant each, so a run that goes on never takes
    /// one mutant's outcome for another's; pass every mutant found, so ranks do not depend on which
    /// are run.
    ///
    /// - Parameter mutants: Every mutant found, in the order found.
    /// - Returns: Each mutant's key.
    public static func keys(of mutants: [Mutant]) -> [Mutant: String] {
        var seen: [String: Int] = [:]
        var keys: [Mutant: String] = [:]
        for mutant in mutants {
            let plain = "\(mutant.file):\(mutant.line): \(mutant.description)"
            let rank = seen[plain, default: 0] + 1
            seen[plain] = rank
            keys[mutant] = rank == 1 ? plain : "\(plain) (\(rank))"
        }
        return keys
    }

    /// The line that records `outcome` for the mutant named `key`.
    ///
    /// - Parameters:
    ///   - key: The mutant's key, from ``keys(of:)``.
    ///   - outcome: What became of it.
    /// - Returns: The line, with its newline.
    public static func line(_ key: String, _ outcome: Outcome) -> String {
        "\(outcome.rawValue)\t\(key)\n"
    }

    /// The mutants in the files under `paths` (prefixes such as `Sources/Services/Auth/`), all of
    /// them: an exhaustive run of a folder rather than a module's sample.
    ///
    /// - Parameters:
    ///   - paths: The folders or files to keep.
    ///   - mutants: Every mutant found.
    /// - Returns: Those under one of `paths`, in order.
    public static func under(_ paths: [String], _ mutants: [Mutant]) -> [Mutant] {
        mutants.filter { mutant in paths.contains { mutant.file.hasPrefix($0) } }
    }
}
