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

    /// How a line is shown on a terminal that takes colours.
    enum Style {
        case plain, bold, dim, yellow

        var code: String? {
            switch self {
            case .plain: nil
            case .bold: "1"
            case .dim: "2"
            case .yellow: "33"
            }
        }
    }

    /// Writes one line to standard output, every character shown as text (see ``escaped(_:)``),
    /// in `style` when the terminal takes colours.
    func print(_ line: String = "", style: Style = .plain) {
        write(styled(Self.escaped(line), style) + "\n", to: FileHandle.standardOutput)
    }

    /// Clears the screen and puts the cursor at its top, on a terminal only: a watching screen
    /// redraws in place. Elsewhere (a pipe, a file) it writes nothing.
    func clearScreen() {
        guard outputIsTerminal else { return }
        write("\u{1B}[H\u{1B}[2J", to: FileHandle.standardOutput)
    }

    /// Writes one line to standard error, every character shown as text.
    func printError(_ line: String) {
        write(Self.escaped(line) + "\n", to: FileHandle.standardError)
    }

    /// Writes several lines of the demo's own text, such as the usage.
    func printLines(_ text: String) {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            print(String(line))
        }
    }

    /// `text` with every character a terminal would act on instead of showing replaced by a
    /// visible stand-in: control characters (ESC, CR, LF, NUL, backspace, ...) by their Unicode
    /// control pictures (`␛`, `␍`, `␊`, ...), and C1 controls, bidirectional overrides and line
    /// separators by `<U+202E>`. Text from the API or the database can then neither recolour,
    /// retitle or clear the terminal nor forge a table row.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F:
                shown.append(Unicode.Scalar(0x2400 + scalar.value) ?? "?")
            case 0x7F:
                shown.append("\u{2421}")
            case _ where isControl(scalar):
                shown.append(
                    contentsOf: "<U+\(String(scalar.value, radix: 16, uppercase: true))>".unicodeScalars)
            default:
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// Text as ``escaped(_:)`` showed it, turned back into what it was: an identifier copied from
    /// the screen (`demo orders show ␛[31mX`) names the order whose identifier holds the control
    /// characters. Only the forms the escaping makes are turned back.
    static func unescaped(_ shown: String) -> String {
        var text = String.UnicodeScalarView()
        var rest = Substring(shown)
        while let scalar = rest.unicodeScalars.first {
            if rest.hasPrefix("<U+"), let end = rest.firstIndex(of: ">"),
                let value = UInt32(rest[rest.index(rest.startIndex, offsetBy: 3)..<end], radix: 16),
                let original = Unicode.Scalar(value), isControl(original)
            {
                text.append(original)
                rest = rest[rest.index(after: end)...]
                continue
            }
            switch scalar.value {
            case 0x2400...0x241F: text.append(Unicode.Scalar(scalar.value - 0x2400) ?? scalar)
            case 0x2421: text.append("\u{7F}")
            default: text.append(scalar)
            }
            rest = Substring(rest.unicodeScalars.dropFirst())
        }
        return String(text)
    }

    /// Whether a terminal may act on `scalar` rather than show it.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private func styled(_ text: String, _ style: Style) -> String {
        guard colours, let code = style.code else { return text }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    private func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }
}
