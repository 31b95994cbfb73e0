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
                process.terminate()
                process.waitUntilExit()
                return .timedOut
            }
            Thread.sleep(forTimeInterval: 0.2)  // polling a child process, not synchronising a test
        }
        return .exited(process.terminationStatus)
    }
}
