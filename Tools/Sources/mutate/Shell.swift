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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let sink =
            log.map { path -> FileHandle? in
                _ = FileManager.default.createFile(atPath: path, contents: nil)
                return FileHandle(forWritingAtPath: path)
            } ?? FileHandle(forWritingAtPath: "/dev/null")
        process.standardOutput = sink
        process.standardError = sink
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                // `swift test` runs the tests in a child of its own, which a hanging mutant keeps
                // alive after its parent goes; and Foundation learns that a process ended only
                // once every process that inherited its descriptors did. So the whole tree goes.
                killTree(process.processIdentifier)
                process.waitUntilExit()
                return .timedOut
            }
            Thread.sleep(forTimeInterval: 0.2)  // polling a child process, not synchronising a test
        }
        return .exited(process.terminationStatus)
    }

    /// Kills `pid` and every process under it, children first being found before the parent goes.
    static func killTree(_ pid: Int32) {
        let children = Process()
        children.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        children.arguments = ["pgrep", "-P", String(pid)]
        let output = Pipe()
        children.standardOutput = output
        if (try? children.run()) != nil {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            children.waitUntilExit()
            for child in text.split(separator: "\n").compactMap({ Int32($0) }) { killTree(child) }
        }
        kill(pid, SIGKILL)
    }
}
