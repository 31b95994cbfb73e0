import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the demo writes, and what the terminal on the other end can take: colour only on a
/// terminal and never with `NO_COLOR`, a spinner only on a terminal, columns to its width.
struct Terminal: Sendable {
    let outputIsTerminal: Bool
    let errorIsTerminal: Bool
    let colours: Bool
    let width: Int?

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        outputIsTerminal = isatty(STDOUT_FILENO) == 1
        errorIsTerminal = isatty(STDERR_FILENO) == 1
        let noColour = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        colours = outputIsTerminal && !noColour && environment["TERM"] != "dumb"
        var size = winsize()
        if outputIsTerminal, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            width = Int(size.ws_col)
        } else {
            width = environment["COLUMNS"].flatMap(Int.init)
        }
    }

    func print(_ line: String = "") {
        write(line + "\n", to: FileHandle.standardOutput)
    }

    func printError(_ line: String) {
        write(line + "\n", to: FileHandle.standardError)
    }

    /// Text in bold, or as is without colours.
    func bold(_ text: String) -> String {
        colours ? "\u{1B}[1m\(text)\u{1B}[0m" : text
    }

    /// Text dimmed, or as is without colours.
    func dim(_ text: String) -> String {
        colours ? "\u{1B}[2m\(text)\u{1B}[0m" : text
    }

    /// Text in yellow, for notices, or as is without colours.
    func yellow(_ text: String) -> String {
        colours ? "\u{1B}[33m\(text)\u{1B}[0m" : text
    }

    private func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }
}
