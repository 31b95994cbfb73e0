import Foundation
import PromiseMVPTesting
import Testing

// Linux only: it reads the waiting thread's state from `/proc`.
#if os(Linux)
    import Glibc

    extension ChildProcessTests {
        @Test("a wait a signal interrupts goes on waiting: it returns once the child exited, with its status")
        func waitInterruptedBySignalGoesOn() async throws {
            // Given: SIGUSR2 handled without SA_RESTART, so that it interrupts a `waitpid` (EINTR), and a
            // child that runs until its input is closed, waited for on a thread of its own
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in }
            try #require(sigaction(SIGUSR2, &action, nil) == 0)
            let input = Pipe()
            let child = try ChildProcess(URL(fileURLWithPath: "/bin/cat"), [], input: input)
            let (started, leave) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            let waiting = Locked<(thread: pthread_t, task: String)?>(nil)
            let waited = Task {
                await BlockingWork.run { () -> Int32 in
                    let task =
                        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"))
                        ?? ""
                    // A `Thread` starts with SIGUSR2 blocked (Foundation blocks most signals in it).
                    var usr2 = sigset_t()
                    sigemptyset(&usr2)
                    sigaddset(&usr2, SIGUSR2)
                    pthread_sigmask(SIG_UNBLOCK, &usr2, nil)
                    waiting.withLock { $0 = (pthread_self(), "/proc/" + task) }
                    started.signal()
                    child.waitUntilExit()
                    let status = child.terminationStatus
                    // The thread stays until the test is done signalling it.
                    _ = leave.wait(timeout: .now() + 300)
                    return status
                }
            }
            try #require(await BlockingWork.run { started.wait(timeout: .now() + 300) == .success })
            let (thread, task) = try #require(waiting.withLock { $0 })
            try #require(!task.hasSuffix("/proc/"))

            // When: the thread asleep (in `waitpid`: its one blocking call after `started`) is
            // signalled; once the signal was delivered (the wait interrupted), the child's input closes
            let delivered = await BlockingWork.run { () -> Bool in
                guard Self.waitUntil(task, { $0.isAsleep }) else { return false }
                pthread_kill(thread, SIGUSR2)
                return Self.waitUntil(task) { !$0.hasPending(SIGUSR2) }
            }
            try input.fileHandleForWriting.close()
            let status = await BlockingWork.run { () -> Int32 in
                child.waitUntilExit()
                return child.terminationStatus
            }
            leave.signal()

            // Then: the interrupted wait went on until the child exited, and kept its status
            #expect(delivered)
            #expect(await waited.value == 0)
            #expect(status == 0 && !child.terminatedBySignal)
        }

        /// A thread's state as `/proc/<pid>/task/<tid>/status` gives it.
        struct ThreadStatus {
            let text: String

            /// Asleep, waiting for something (`State: S`).
            var isAsleep: Bool { text.contains("\nState:\tS") }

            /// Whether `signal` is pending for the thread itself (`SigPnd`).
            func hasPending(_ signal: Int32) -> Bool {
                let line = text.split(separator: "\n").first { $0.hasPrefix("SigPnd:") }
                let mask = line.flatMap {
                    UInt64($0.dropFirst("SigPnd:".count).trimmingCharacters(in: .whitespaces), radix: 16)
                }
                return mask.map { $0 & (1 << UInt64(signal - 1)) != 0 } ?? true
            }
        }

        /// Reads `task`'s status until `condition` holds (`true`), or the thread is gone or a minute
        /// passed (`false`). Blocking: it spins, yielding the core each time.
        static func waitUntil(_ task: String, _ condition: (ThreadStatus) -> Bool) -> Bool {
            let deadline = Date(timeIntervalSinceNow: 60)
            while Date() < deadline, let text = try? String(contentsOfFile: task + "/status", encoding: .utf8)
            {
                if condition(ThreadStatus(text: text)) { return true }
                sched_yield()
            }
            return false
        }
    }
#endif
