import Foundation
import MelodiesTesting
import OrdersTesting

// Runs the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES

    /// Runs the built `demo` executable as a user would: a subprocess with its own database, no colour.
    struct DemoRunner {
        struct Run {
            let status: Int32
            let output: String
            let error: String
        }

        /// The folder of this runner's database, removed when the runner goes.
        let folder = TemporaryFolder("DemoTests")
        /// The database every run of this runner uses, in a folder of its own.
        var database: URL { folder.file("demo.sqlite") }

        /// The executable, next to the test bundle in the build folder.
        static let executable = BuildProducts.executable("demo")

        /// Runs `demo` with `arguments` and this runner's database, and waits for it to exit, off the
        /// cooperative pool (a blocked pool thread would stall every other test's promises).
        func run(
            _ arguments: [String], database: URL? = nil, environment: [String: String] = [:]
        ) async throws -> Run {
            let output = Pipe()
            let error = Pipe()
            let process = try launch(
                arguments, database: database, environment: environment, output: output, error: error)
            return await Self.offThePool {
                let outputData = output.fileHandleForReading.readDataToEndOfFile()
                let errorData = error.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return Run(
                    status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                    error: String(decoding: errorData, as: UTF8.self))
            }
        }

        /// Waits for `process` to exit, off the cooperative pool.
        static func waitForExit(_ process: ChildProcess) async {
            await offThePool { process.waitUntilExit() }
        }

        /// Runs blocking `work` on a thread of its own and waits for it without blocking the caller's.
        static func offThePool<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
            await BlockingWork.run(work)
        }

        /// Starts `demo` with `arguments` and this runner's database, its output thrown away, and
        /// returns at once: for a test that kills it.
        func start(_ arguments: [String], errors: Pipe? = nil, input: Pipe? = nil, output: Pipe? = nil) throws
            -> ChildProcess
        {
            try launch(
                arguments, database: nil, environment: [:], input: input, output: output, error: errors)
        }

        /// Starts `demo` (through `ChildProcess`, the tests' one way to start a program).
        private func launch(
            _ arguments: [String], database: URL?, environment: [String: String], input: Pipe? = nil,
            output: Pipe?, error: Pipe?
        ) throws -> ChildProcess {
            var variables = ProcessInfo.processInfo.environment
            variables["NO_COLOR"] = "1"
            variables["DEMO_API_URL"] = nil
            // Generous: the loopback server answers at once, but a sanitizer run on two busy cores may
            // keep it from being scheduled for seconds; a timeout here would test the machine.
            variables["DEMO_API_TIMEOUT"] = "60"
            variables.merge(environment) { $1 }
            return try ChildProcess(
                Self.executable, arguments + ["--database", (database ?? self.database).path],
                environment: variables, input: input, output: output, error: error)
        }

        /// The largest peak resident memory of any child process this process has waited for, in
        /// bytes; `nil` where it cannot be read. (`ru_maxrss` counts kilobytes on Linux, bytes on
        /// Apple platforms.)
        static func largestChildResidentBytes() -> Int? {
            var usage = rusage()
            #if os(Linux)
                guard getrusage(RUSAGE_CHILDREN.rawValue, &usage) == 0, usage.ru_maxrss > 0 else {
                    return nil
                }
                return Int(usage.ru_maxrss) * 1024
            #else
                guard getrusage(RUSAGE_CHILDREN, &usage) == 0, usage.ru_maxrss > 0 else { return nil }
                return Int(usage.ru_maxrss)
            #endif
        }
    }

    /// Whether a transfer stopped at the response limit stops at once on this platform.
    enum BoundedTransferPlatform {
        #if canImport(FoundationNetworking)
            static let stopsAtTheLimit = false
        #else
            static let stopsAtTheLimit = true
        #endif
    }

#endif
