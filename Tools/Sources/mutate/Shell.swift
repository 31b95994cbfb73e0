import Foundation

/// Runs a command in a folder, its output thrown away unless asked for, killed after `timeout`.
enum Shell {
    enum Result {
        case exited(Int32)
        case timedOut
    }

    static func run(_ arguments: [String], in folder: String, timeout: TimeInterval, log: String? = nil)
        throws
        -> Result
    {
        // posix_spawn and waitpid, not Foundation's `Process`: on Linux, `Process` sometimes never
        // learns that a child ended (seen here: `swift test` a zombie for 20 minutes while
        // `isRunning` stayed true, and `waitUntilExit` after the kill never returned).
        let sink = open(log ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard sink >= 0 else { throw POSIXError(.EIO) }
        defer { close(sink) }
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, sink, 1)
        posix_spawn_file_actions_adddup2(&actions, sink, 2)
        // The folder through the shell: `posix_spawn_file_actions_addchdir_np` is not declared
        // for Swift on every C library.
        let command = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", folder] + arguments
        let argv = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }

        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                // `swift test` runs the tests in a child of its own, which a hanging mutant keeps
                // alive after its parent goes: the whole tree goes.
                killTree(pid)
                _ = waitpid(pid, &status, 0)
                return .timedOut
            }
            Thread.sleep(forTimeInterval: 0.2)  // polling a child process, not synchronising a test
        }
        // Exited: its code; killed by a signal: 128 and the signal, as a shell says.
        return .exited(status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f))
    }

    /// Kills `pid` and every process under it, children first being found before the parent goes.
    static func killTree(_ pid: Int32) {
        let children = Process()
        children.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        children.arguments = ["pgrep", "-P", String(pid)]
        let output = Pipe()
        children.standardOutput = output
        if (try? children.run()) != nil {
            // Read to its end, pgrep has finished; not waited for, as `Process` may never learn it.
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            for child in text.split(separator: "\n").compactMap({ Int32($0) }) { killTree(child) }
        }
        kill(pid, SIGKILL)
    }
}
