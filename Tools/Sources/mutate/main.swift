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
    for (module, count) in byModule.sorted(by: { $0.key < $1.key }) { print("\(module): \(count) mutants") }
    guard !options.list else { return }

    let picked = MutantSample.pick(mutants, perModule: options.sample, seed: options.seed)
    print(
        "running \(picked.count) (at most \(options.sample) per module, seed \(options.seed)) in \(options.scratch)"
    )
    try copy(root, to: options.scratch)
    let test = ["swift", "test", "--skip-build"] + (options.filter.map { ["--filter", $0] } ?? [])
    guard
        case .exited(0) = try Shell.run(
            ["swift", "build", "--build-tests"], in: options.scratch, timeout: 1_800),
        case .exited(0) = try Shell.run(test, in: options.scratch, timeout: options.testTimeout)
    else {
        throw UsageError("the package does not build, or its tests fail, without any mutant: fix that first")
    }

    let started = Date()
    var results: [(Mutant, Outcome)] = []
    for (number, mutant) in picked.enumerated() {
        guard Date().timeIntervalSince(started) < options.budget else {
            print("budget spent: \(results.count) of \(picked.count) run")
            break
        }
        let path = options.scratch + "/" + mutant.file
        let original = try String(contentsOfFile: path, encoding: .utf8)
        try mutant.applied(to: original).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? original.write(toFile: path, atomically: true, encoding: .utf8) }
        let outcome: Outcome
        switch try Shell.run(["swift", "build", "--build-tests"], in: options.scratch, timeout: 1_800) {
        case .exited(0):
            switch try Shell.run(test, in: options.scratch, timeout: options.testTimeout) {
            case .exited(0): outcome = .survived
            case .exited: outcome = .killed
            case .timedOut: outcome = .timedOut
            }
        default:
            outcome = .notCompiled
        }
        results.append((mutant, outcome))
        print(
            "[\(number + 1)/\(picked.count)] \(outcome.rawValue): \(mutant.file):\(mutant.line): \(mutant.description)"
        )
    }
    let survivors = results.filter { $0.1 == .survived }.map(\.0)
    print("\nsurvivors (\(survivors.count)):")
    for mutant in survivors { print("  \(mutant.file):\(mutant.line): \(mutant.description)") }
    print("\n" + MutationScore.table(MutationScore.scores(results)))
}

/// Copies the package to `scratch`, its build folder kept there so that each mutant builds
/// incrementally: every top-level entry but the build folders, git and the separate packages.
func copy(_ root: String, to scratch: String) throws {
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    let skipped: Set<String> = [".build", ".git", "Tools", "Benchmarks"]
    for entry in try FileManager.default.contentsOfDirectory(atPath: root) where !skipped.contains(entry) {
        let target = scratch + "/" + entry
        if FileManager.default.fileExists(atPath: target) {
            try FileManager.default.removeItem(atPath: target)
        }
        try FileManager.default.copyItem(atPath: root + "/" + entry, toPath: target)
    }
}

do {
    try main()
} catch let error as UsageError {
    FileHandle.standardError.write(Data((error.message + "\n").utf8))
    exit(2)
}
