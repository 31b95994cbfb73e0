import Foundation
import MelodiesTesting
import OrdersTesting
import Testing

#if SUBPROCESSES  // where the demo is built: macOS and Linux (Package.swift)
    @testable import Demo
#endif

#if SUBPROCESSES
    /// The demo's terminal output at its edges: each test written after a deliberate break of the code
    /// it covers went unnoticed.
    @Suite("Terminal output")
    struct TerminalOutputTests {
        @Test(
            "every C0 control shows as its control picture, DEL and C1 controls and overrides as a code",
            arguments: [
                ("\u{00}", "\u{2400}"), ("\u{1B}", "\u{241B}"), ("\u{1F}", "\u{241F}"),
                ("\u{7F}", "\u{2421}"),
                ("\u{80}", "<U+80>"), ("\u{9F}", "<U+9F>"), ("\u{202E}", "<U+202E>"),
                ("\u{2066}", "<U+2066>"),
                ("\u{20}", " "), ("é", "é"),
            ])
        func escapes(character: String, shown: String) {
            #expect(Terminal.escaped("a\(character)b") == "a\(shown)b")
        }

        @Test("a table pads every column but the last, so no line ends in spaces")
        func noTrailingSpaces() {
            let table = Table(headers: ["#", "Title"], rows: [["1", "A"], ["12", "Longer title"]])
            let lines = Array(table.lines(fitting: nil))
            #expect(lines == ["#   Title", "1   A", "12  Longer title"])
            let emptyLast = Table(headers: ["#", "Reason"], rows: [["1", ""]], cells: { $0 })
            #expect(Array(emptyLast.lines(fitting: nil)) == ["#  Reason", "1"])
            #expect(lines.allSatisfy { !$0.hasSuffix(" ") })
        }

        @Test("a cell with accented letters or symbols is padded by the characters it shows, not its bytes")
        func nonASCIIWidth() {
            // Given a column whose widest cell is not ASCII
            let table = Table(headers: ["Name", "Total"], rows: [["Café €", "1"], ["Tea", "2"]])

            // When it is laid out
            let lines = Array(table.lines(fitting: nil))

            // Then the next column starts at the same place on every line
            #expect(lines == ["Name    Total", "Café €  1", "Tea     2"])
        }

        @Test("a narrow terminal shortens the flexible columns and leaves the fixed ones whole")
        func fixedColumnsStayWhole() {
            let table = Table(
                headers: ["#", "Title", "Time"], rows: [["10", "A very long melody title indeed", "26:00"]],
                fixed: [0, 2])
            let roomy = Array(table.lines(fitting: 20))
            let cramped = Array(table.lines(fitting: 12))  // narrower than the fixed columns need
            #expect(roomy.allSatisfy { $0.count <= 20 })
            #expect(roomy[1].contains("…"))
            for line in [roomy[1], cramped[1]] {
                #expect(line.hasPrefix("10  "), "\(line)")
                #expect(line.hasSuffix("  26:00"), "\(line)")
            }
        }

        @Test("a cell the API sent 100 KiB long shows its start and an ellipsis, in a pipe too")
        func hugeCellIsCut() {
            // Given: a name of 100 KiB, as a hostile shop sends, and no terminal width
            let table = Table(
                headers: ["ID", "Name"], rows: [["n1", String(repeating: "L", count: 100 << 10)]], fixed: [0])

            // When
            let lines = Array(table.lines(fitting: nil))

            // Then
            #expect(lines[1] == "n1  " + String(repeating: "L", count: 59) + "…")
        }

        @Test(
            "an address is shown without its user name or password",
            arguments: [
                ("http://amy:secret@shop.example/", "http://shop.example/"),
                ("http://:secret@shop.example/", "http://shop.example/"),
                ("http://amy@shop.example/", "http://shop.example/"),
                ("http://shop.example:8080/api/", "http://shop.example:8080/api/"),
            ])
        func withoutCredentials(address: String, shown: String) throws {
            #expect(try #require(URL(string: address)).withoutCredentials == shown)
        }

        @Test(
            "text escaped for the terminal turns back into what it was; plain text stays as it is",
            arguments: [
                "\u{1B}[31mred\u{1B}[0m", "nul\u{0}end", "a\r\nb\u{7F}", "\u{202E}evil\u{2066}",
                "plain ünïcödé 🎵", "<U+41>",
            ])
        func unescapedRoundTrip(text: String) {
            #expect(Terminal.unescaped(Terminal.escaped(text)) == text)
        }

        @Test(
            "text given as an address is shown without credentials, valid URL or not",
            arguments: [
                ("ftp://u:s3cret@127.0.0.1:8080/", "ftp://127.0.0.1:8080/"),
                ("u:s3cret@127.0.0.1:8080", "127.0.0.1:8080"),
                ("http://u:s3cret@[::1/", "http://[::1/"),
                ("http://u:pa/ss@@host/", "http://host/"),
                ("garbage", "garbage"),
            ])
        func textWithoutCredentials(text: String, shown: String) {
            #expect(URL.withoutCredentials(text) == shown)
        }

        @Test(
            "a price is a whole decimal with at most two decimals",
            arguments: [
                ("3", Decimal(3)), ("3.5", Decimal(string: "3.5")), ("3.50", Decimal(string: "3.5")),
                ("3.505", nil), ("3,50", nil), ("0x10", nil), ("", nil), ("-1", nil), (".5", nil),
            ])
        func prices(text: String, price: Decimal?) {
            #expect(Arguments.price(text) == price)
        }

        #if SUBPROCESSES  // runs the demo as a subprocess (Package.swift, `subprocesses`)
            @Test("cache then network prints the table once when the fresh list is the same as the copy")
            func unchangedListIsPrintedOnce() async throws {
                // Given: a copy saved by one online run
                let demo = DemoRunner()
                let temporary = TemporaryFolder("DemoAPI")
                try SampleAPI.write(to: temporary.url)
                let melodies = try String(
                    contentsOf: temporary.url.appendingPathComponent("melodies.json"), encoding: .utf8)
                let server = try TestHTTPServer(["/melodies": .status(200, body: melodies)])
                defer { server.stop() }
                _ = try await demo.run(["melodies", "--api", server.baseURL.absoluteString])

                // When
                let run = try await demo.run([
                    "melodies", "--api", server.baseURL.absoluteString, "--cache", "cache-then-network",
                ])

                // Then
                #expect(run.status == 0, "\(run.error)")
                #expect(run.output.components(separatedBy: "Melodies (12)").count == 2, "\(run.output)")
                #expect(run.output.contains("the same as the copy above"))
            }
        #endif
    }
#endif
