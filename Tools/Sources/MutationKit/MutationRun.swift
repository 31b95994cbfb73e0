/// How a run reaches the scratch copy: builds it and runs its tests. The tool does it with
/// `swift build` and `swift test`; the tool's tests with a fake that plants a survivor.
public protocol MutantChecker {
    /// Builds the scratch copy as it is now.
    ///
    /// - Returns: Whether it compiled.
    /// - Throws: When the build could not be started.
    func builds() throws -> Bool

    /// Runs the tests `filter` names, or all of them when it is `nil`.
    ///
    /// - Parameter filter: A `swift test --filter` pattern, or `nil`.
    /// - Returns: How the run ended.
    /// - Throws: When the tests could not be started.
    func runTests(_ filter: String?) throws -> TestRun
}

/// How a test run ended.
public enum TestRun: Sendable, Equatable {
    /// Every test passed.
    case passed
    /// A test failed (or the test process crashed).
    case failed
    /// The run went past its time.
    case timedOut
}

/// Runs mutants one at a time: writes each into its file, builds, runs the tests, puts the file
/// back.
public struct MutationRun {
    /// Reads and writes the scratch copy's files, by path relative to its root.
    public var read: (String) throws -> String
    /// Writes a file of the scratch copy.
    public var write: (String, String) throws -> Void
    /// The tests that observe a mutant's file most closely, narrowest first, run before the whole
    /// suite: the suites of the test folder that mirrors the file's folder, then the module's own
    /// test target (`ServicesTests` for `Services`). Most mutants fail in the first, in a fraction
    /// of the whole suite's time.
    public var narrowTests: (Mutant) -> [String]

    /// A run over a scratch copy's files.
    ///
    /// - Parameters:
    ///   - read: Reads a file, by path relative to the copy's root.
    ///   - write: Writes a file, by path relative to the copy's root.
    ///   - narrowTests: The test filters to run before the whole suite, narrowest first; none to
    ///     run the whole suite only.
    public init(
        read: @escaping (String) throws -> String, write: @escaping (String, String) throws -> Void,
        narrowTests: @escaping (Mutant) -> [String]
    ) {
        self.read = read
        self.write = write
        self.narrowTests = narrowTests
    }

    /// What becomes of `mutant`: not compiled, killed by the tests nearest its file or by the whole
    /// suite, timed out, or survived. Its file is put back whatever happens.
    ///
    /// - Parameters:
    ///   - mutant: The change to try.
    ///   - checker: Builds the copy and runs its tests.
    /// - Returns: The outcome.
    /// - Throws: When a file cannot be read or written, or the checker cannot start.
    public func outcome(of mutant: Mutant, with checker: some MutantChecker) throws -> Outcome {
        let original = try read(mutant.file)
        try write(mutant.file, mutant.applied(to: original))
        defer { try? write(mutant.file, original) }
        guard try checker.builds() else { return .notCompiled }
        let filters: [String?] = narrowTests(mutant) + [nil]
        for filter in filters {
            switch try checker.runTests(filter) {
            case .failed: return .killed
            case .timedOut: return .timedOut
            case .passed: continue
            }
        }
        return .survived
    }
}
