import Foundation
import PromiseMVPTesting
import Promises
import Testing

// Linux only: it chooses the next process identifier through `/proc/sys/kernel/ns_last_pid`.
#if os(Linux)
    import Glibc

    /// The file that sets the process identifier the system gives next (its value plus one).
    private let lastProcessIdentifier = "/proc/sys/kernel/ns_last_pid"

    /// Whether this process may write it (root, with the capability to administer the system).
    private let canChooseTheNextIdentifier: Bool = {
        let descriptor = open(lastProcessIdentifier, O_WRONLY)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }()

    extension ChildProcessTests {
        /// `/bin/cat`, running until its input is closed, started with the process identifier
        /// `identifier`; `nil` when another process's start took it first, 100 times.
        static func cat(reusing identifier: pid_t) throws -> (ChildProcess, Pipe)? {
            for _ in 0..<100 {
                let descriptor = open(lastProcessIdentifier, O_WRONLY)
                guard descriptor >= 0 else { return nil }
                let value = "\(identifier - 1)"
                let written = value.withCString { write(descriptor, $0, strlen($0)) }
                close(descriptor)
                guard written == value.utf8.count else { return nil }
                let input = Pipe()
                let child = try ChildProcess(URL(fileURLWithPath: "/bin/cat"), [], input: input)
                if child.processIdentifier == identifier { return (child, input) }
                try input.fileHandleForWriting.close()
                child.waitUntilExit()
            }
            return nil
        }

        @Test(
            "a child reaped keeps its status, though its process id now names another child: waits return at once",
            .enabled(if: canChooseTheNextIdentifier))
        func reusedProcessIdentifier() async throws {
            // Given: a child that exited with 3, reaped; then another child, running until its
            // input closes, given the same process identifier
            let first = try ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "exit 3"])
            first.waitUntilExit()
            let (second, input) = try #require(try Self.cat(reusing: first.processIdentifier))

            // When: the first is waited for again (on a thread of its own: a wait for the wrong
            // child would block), then asked whether it runs once the second exited, not reaped
            let waitedAgain = Promise<Bool> { seal in
                Thread {
                    first.waitUntilExit()
                    seal.fulfill(true)
                }.start()
            }
            let returned = await PromiseExpectations.value(of: waitedAgain, timeout: 30)
            try input.fileHandleForWriting.close()
            let secondExited = await BlockingWork.run { () -> Bool in
                var exited = siginfo_t()
                return waitid(P_PID, id_t(second.processIdentifier), &exited, WEXITED | WNOWAIT) == 0
            }
            let firstRuns = first.isRunning

            // Then: the first's status is its own; the second is reaped by its own wait
            #expect(returned == true)
            #expect(secondExited)
            #expect(!firstRuns)
            #expect(first.terminationStatus == 3)
            second.waitUntilExit()
            #expect(second.terminationStatus == 0)
        }
    }
#endif
