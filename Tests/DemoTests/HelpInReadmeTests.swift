import Foundation
import Testing

#if SUBPROCESSES
    /// The demo's README (`Examples/Demo/README.md`) lists what `demo --help` prints: a command or
    /// an option added to the demo and not to its README fails here.
    @Suite("demo: its README lists what --help prints")
    struct HelpInReadmeTests {
        @Test("every option and every command of demo --help is in the demo's README")
        @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // Regex
        func readmeListsHelp() async throws {
            // Given
            let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            let readme = try String(
                contentsOf: here.appendingPathComponent("../../Examples/Demo/README.md").standardized,
                encoding: .utf8)

            // When
            let help = try await DemoRunner().run(["--help"]).output
            let usage = help.components(separatedBy: "\n\n").first ?? ""
            let options = Set(help.matches(of: /--[a-z][a-z-]*/).map { String($0.output) })
            // The usage's words once its options (`--city CITY`, `[--shipping a|b]`) are taken out.
            let words = usage.replacing(/\[--[^\]]*\]/, with: "").replacing(/--[a-z-]+( [A-Z:.]+)?/, with: "")
            let commands = Set(words.matches(of: /\b[a-z][a-z-]+\b/).map { String($0.output) })
                .subtracting(["usage", "demo"])
            let demoLines = readme.split(separator: "\n").filter { $0.contains("swift run demo") }

            // Then
            #expect(options.count >= 10 && commands.count >= 10, "\(options) \(commands)")
            #expect(options.filter { !readme.contains("`\($0)") && !readme.contains(" \($0)") }.isEmpty)
            let missing = commands.filter { command in
                !demoLines.contains { line in
                    line.split(whereSeparator: { !$0.isLetter && $0 != "-" }).contains(Substring(command))
                }
            }
            #expect(missing.isEmpty, "\(missing)")
            // And the other way: a command the README runs is one --help lists.
            let cited = demoLines.flatMap { line -> [String] in
                let words = line.split(separator: " ").map(String.init)
                guard let demo = words.firstIndex(of: "demo") else { return [] }
                return words.dropFirst(demo + 1).prefix(2).prefix {
                    !$0.hasPrefix("-") && $0.allSatisfy { $0.isLowercase || $0 == "-" }
                }
            }
            #expect(Set(cited).subtracting(commands).isEmpty, "\(Set(cited).subtracting(commands))")
        }
    }
#endif
