/// The outcomes of a run written down as they come, one line each, so that a run stopped by its
/// budget (or killed) goes on where it stopped: `outcome<TAB>file:line: description`.
public struct MutationLedger: Sendable {
    /// The outcome of each mutant already run, by ``key(of:)``.
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

    /// What names a mutant in a ledger: its file, line and change.
    ///
    /// - Parameter mutant: The mutant.
    /// - Returns: `file:line: description`.
    public static func key(of mutant: Mutant) -> String {
        "\(mutant.file):\(mutant.line): \(mutant.description)"
    }

    /// The line that records `outcome` for `mutant`.
    ///
    /// - Parameters:
    ///   - mutant: The mutant.
    ///   - outcome: What became of it.
    /// - Returns: The line, with its newline.
    public static func line(_ mutant: Mutant, _ outcome: Outcome) -> String {
        "\(outcome.rawValue)\t\(key(of: mutant))\n"
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
