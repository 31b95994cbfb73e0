import Foundation
import MutationKit

/// Finds the mutants of `Sources/`, runs a sample of them in a scratch copy, prints the survivors
/// and a score per module.
func main() throws {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let root = URL(fileURLWithPath: options.root).standardized.path
    var mutants: [Mutant] = []
    let sources = root + "/Sources"
    for case let path as String in FileManager.default.enumerator(atPath: sources) ?? NSEnumerator() {
        guard path.hasSuffix(".swift"), let module = path.split(separator: "/").first.map(String.init),
            options.modules.isEmpty || options.modules.contains(module)
        else { continue }
        let source = try String(contentsOfFile: sources + "/" + path, encoding: .utf8)
        mutants += MutantFinder.mutants(in: source, file: "Sources/" + path, module: module)
    }
    let byModule = Dictionary(grouping: mutants, by: \.module).mapValues(\.count)
    for (module, count) in byModule.sorted(by: { $0.key < $1.key }) { say("\(module): \(count) mutants") }
    guard !options.list else { return }

    let ledger = MutationLedger(
        options.results.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? "")
    let chosen =
        options.paths.isEmpty
        ? MutantSample.pick(mutants, perModule: options.sample, seed: options.seed)
        : MutationLedger.under(options.paths, mutants)
    let keys = MutationLedger.keys(of: mutants)
    var results: [(Mutant, Outcome)] = chosen.compactMap { mutant in
        keys[mutant].flatMap { ledger.outcomes[$0] }.map { (mutant, $0) }
    }
    let picked = chosen.filter { keys[$0].flatMap { ledger.outcomes[$0] } == nil }
    say(
        options.paths.isEmpty
            ? "running \(picked.count) (at most \(options.sample) per module, seed \(options.seed)) in \(options.scratch)"
            : "running every mutant under \(options.paths.joined(separator: ", ")): \(picked.count), \(results.count) already done"
    )
    try copy(root, to: options.scratch)
    let baseline = SwiftPackageChecker(
        folder: options.scratch, testTimeout: options.testTimeout, suite: options.filter)
    guard try baseline.builds(), try baseline.runTests(nil) == .passed else {
        throw UsageError("the package does not build, or its tests fail, without any mutant: fix that first")
    }

    let checker = SwiftPackageChecker(
        folder: options.scratch, testTimeout: options.testTimeout, suite: options.filter)
    let tests =
        FileManager.default.enumerator(atPath: options.scratch + "/Tests")?.allObjects as? [String] ?? []
    let nearest = NearestTests(
        testFiles: tests.map { "Tests/" + $0 }, suiteGiven: options.filter != nil,
        targets: options.testTargets)
    let run = MutationRun(
        read: { try String(contentsOfFile: options.scratch + "/" + $0, encoding: .utf8) },
        write: { try $1.write(toFile: options.scratch + "/" + $0, atomically: true, encoding: .utf8) },
        narrowTests: nearest.filters(for:))
    let started = Date()
    let ledgerFile = options.results.flatMap(openForAppending)
    for (number, mutant) in picked.enumerated() {
        guard Date().timeIntervalSince(started) < options.budget else {
            say("budget spent: \(results.count) of \(picked.count) run")
            break
        }
        let outcome = try run.outcome(of: mutant, with: checker)
        results.append((mutant, outcome))
        if let key = keys[mutant] { ledgerFile?.write(Data(MutationLedger.line(key, outcome).utf8)) }
        say(
            "[\(number + 1)/\(picked.count)] \(outcome.rawValue): \(mutant.file):\(mutant.line): \(mutant.description)"
        )
    }
    let survivors = results.filter { $0.1 == .survived }.map(\.0)
    say("\nsurvivors (\(survivors.count)):")
    for mutant in survivors { say("  \(mutant.file):\(mutant.line): \(mutant.description)") }
    say("\n" + MutationScore.table(MutationScore.scores(results)))
}

/// Copies the package to `scratch`, its build folder kept there so that each mutant builds
/// incrementally: every file but git's and the build folders (the root's and those of the separate
/// packages, `Tools/` and `Benchmarks/`, whose sources the documentation tests read).
func copy(_ root: String, to scratch: String) throws {
    let files = FileManager.default
    try files.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    for entry in try files.contentsOfDirectory(atPath: root) where ![".build", ".git"].contains(entry) {
        let target = scratch + "/" + entry
        if files.fileExists(atPath: target) { try files.removeItem(atPath: target) }
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: root + "/" + entry, isDirectory: &isFolder), isFolder.boolValue,
            ["Tools", "Benchmarks"].contains(entry)
        {
            try copy(root + "/" + entry, to: target)
        } else {
            try files.copyItem(atPath: root + "/" + entry, toPath: target)
        }
    }
}

/// The file at `path`, made when missing, open for writing at its end; `nil` when it cannot be.
func openForAppending(_ path: String) -> FileHandle? {
    if !FileManager.default.fileExists(atPath: path) {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
    }
    let handle = FileHandle(forWritingAtPath: path)
    handle?.seekToEndOfFile()
    return handle
}

/// Writes a line at once, unbuffered, so that a run sent to a file can be followed as it goes.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

do {
    try main()
} catch let error as UsageError {
    FileHandle.standardError.write(Data((error.message + "\n").utf8))
    exit(2)
}
