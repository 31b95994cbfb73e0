import Foundation

/// The command line: `mutate [--root PATH] [--scratch PATH] [--module NAME ...] [--sample N]
/// [--seed N] [--path PREFIX ...] [--results FILE] [--budget SECONDS] [--test-timeout SECONDS]
/// [--filter TESTS] [--tests-of MODULE=TARGET ...] [--list]`.
struct Options {
    var root = FileManager.default.currentDirectoryPath
    var scratch = NSTemporaryDirectory() + "mutate-scratch"
    var modules: [String] = []
    var sample = 10
    var seed: UInt64 = 2026
    var budget: TimeInterval = 3_600
    var testTimeout: TimeInterval = 300
    var filter: String?
    var list = false
    /// Folders or files (`Sources/Services/Auth/`) whose every mutant runs, instead of a sample.
    var paths: [String] = []
    /// Where outcomes are written as they come, and read back to go on with a run.
    var results: String?
    /// The test target of a module whose name does not say it (`--tests-of MODULE=TARGET`).
    var testTargets: [String: String] = [:]

    static let usage = """
        usage: mutate [--root PATH] [--scratch PATH] [--module NAME ...] [--sample N] [--seed N]
                      [--path PREFIX ...] [--results FILE]
                      [--budget SECONDS] [--test-timeout SECONDS] [--filter TESTS]
                      [--tests-of MODULE=TARGET ...] [--list]

        Changes the package's sources one mutant at a time in a scratch copy (comparison and
        boundary operators, && and ||, negations, return constants, removed calls, if bodies and
        guards, swapped arguments, ranges off by one), builds, runs the tests, and prints the
        mutants every test survived and a score per module. Mutants that do not compile are
        counted apart. --sample picks N per module (with --seed); --budget stops starting new
        ones after that many seconds; --list only counts them. --path runs every mutant of the
        files under PREFIX (Sources/Services/Auth/), no sample; --results writes each outcome
        to FILE as it comes and skips those FILE already holds, so a run goes on where it stopped.
        --tests-of names the test target run first for a module whose name does not say it
        (PromiseMVPTestServer=PromiseMVPTestingTests).
        """

    init(_ arguments: [String]) throws {
        var remaining = arguments[...]
        func value(_ name: String) throws -> String {
            guard let value = remaining.popFirst() else { throw UsageError("\(name) needs a value") }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--root": root = try value(argument)
            case "--scratch": scratch = try value(argument)
            case "--module": modules.append(try value(argument))
            case "--sample": sample = try Self.number(try value(argument), argument)
            case "--seed": seed = UInt64(try Self.number(try value(argument), argument))
            case "--budget": budget = TimeInterval(try Self.number(try value(argument), argument))
            case "--test-timeout": testTimeout = TimeInterval(try Self.number(try value(argument), argument))
            case "--filter": filter = try value(argument)
            case "--list": list = true
            case "--path": paths.append(try value(argument))
            case "--results": results = try value(argument)
            case "--tests-of":
                let pair = try value(argument).split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2, !pair[0].isEmpty, !pair[1].isEmpty else {
                    throw UsageError("--tests-of takes MODULE=TARGET")
                }
                testTargets[pair[0]] = pair[1]
            case "--help": throw UsageError(Self.usage)
            default: throw UsageError("unknown argument '\(argument)'\n\n\(Self.usage)")
            }
        }
    }

    private static func number(_ text: String, _ name: String) throws -> Int {
        guard let number = Int(text), number > 0 else { throw UsageError("\(name) takes a positive number") }
        return number
    }
}

struct UsageError: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
