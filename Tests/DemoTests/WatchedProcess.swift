import Foundation
import PromiseMVPTesting
import Promises
import Testing

// Drives the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES

    /// A demo left running, its standard input a pipe the test closes, its output gathered as it
    /// comes.
    final class WatchedProcess: @unchecked Sendable {
        // `@unchecked Sendable` is sound: `text` and `waiters` are only touched while holding
        // `lock`; `process` and the pipes are set in `init` and only used through their own
        // thread-safe calls afterwards.
        private let lock = NSLock()
        private var text = ""
        private var waiters: [(String, Seal<Void>)] = []
        private let process: ChildProcess
        private let input = Pipe()
        private let output = Pipe()

        init(_ demo: DemoRunner, _ arguments: [String]) throws {
            process = try demo.start(arguments, input: input, output: output)
            output.fileHandleForReading.readabilityHandler = { [weak self] handle in
                self?.gathered(handle.availableData)
            }
        }

        private func gathered(_ data: Data) {
            let met = lock.withLock { () -> [Seal<Void>] in
                text += String(decoding: data, as: UTF8.self)
                let met = waiters.filter { text.contains($0.0) }.map(\.1)
                waiters.removeAll { text.contains($0.0) }
                return met
            }
            for seal in met { seal.fulfill(()) }
        }

        /// Whether the output comes to contain `line` within 60 seconds.
        func output(containing line: String, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool
        {
            let (promise, seal) = Promise<Void>.pending()
            lock.withLock {
                if text.contains(line) { seal.fulfill(()) } else { waiters.append((line, seal)) }
            }
            let seen: Void? = await PromiseExpectations.value(
                of: promise, timeout: 60, sourceLocation: sourceLocation)
            if seen == nil { Issue.record("the output so far:\n\(lock.withLock { text })") }
            return seen != nil
        }

        /// Closes the demo's input and gives its exit status.
        func closeInput() async -> Int32 {
            try? input.fileHandleForWriting.close()
            await DemoRunner.waitForExit(process)
            output.fileHandleForReading.readabilityHandler = nil
            return process.terminationStatus
        }

        deinit {
            if process.isRunning { process.terminate() }
        }
    }
#endif
