import Foundation
import MelodiesTesting
import OrdersTesting
import Testing

#if SUBPROCESSES  // where the demo is built: macOS and Linux (Package.swift)
    @testable import Demo
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Runs the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES

    /// Hostile text, crowded files and strict input, through the built `demo` as a user runs it.
    @Suite("demo: hostile input")
    struct HostileInputTests {
        /// Text that would act on a terminal if printed raw: colour, title, clear screen, a forged row,
        /// NUL, backspace, a right-to-left override, a C1 CSI.
        static let hostile =
            "Evil\u{1B}[31mRed\u{1B}]0;pwned\u{07}\u{1B}[2J\r\nFORGED  ROW\u{00}\u{08}\u{202E}gnp.exe\u{9B}31m"

        /// What no byte of the demo's output may hold once hostile text went through it.
        static func actsOnTerminal(_ text: String) -> Bool {
            text.unicodeScalars.contains {
                [0x1B, 0x0D, 0x00, 0x08, 0x07, 0x9B, 0x202E].contains($0.value)
            }
        }

        @Test("a hostile melody title or order name is shown escaped, never acted on, and forges no row")
        func hostileTextIsEscaped() async throws {
            // Given
            let demo = DemoRunner()
            let hostileJSON = String(
                decoding: try JSONEncoder().encode(Self.hostile), as: UTF8.self)
            let melodies =
                #"[{"id": 1, "title": \#(hostileJSON), "artist": "A", "album": "B", "duration": 60}]"#
            let shop = TestOrdersShop(orders: [
                Order(
                    id: "evil", date: Date(timeIntervalSince1970: 1_700_000_000), email: "e@example.com",
                    firstName: Self.hostile, lastName: "X",
                    items: [OrderItem(name: Self.hostile, quantity: 1, unitPrice: 1)],
                    total: 1)
            ])
            let server = try TestHTTPServer(
                ["/melodies": .status(200, body: melodies)], responder: shop.respond)
            defer { server.stop() }
            let api = ["--api", server.baseURL.absoluteString]

            // When
            let runs = [
                try await demo.run(["melodies"] + api), try await demo.run(["orders"] + api),
                try await demo.run(["orders", "show", "evil"] + api),
            ]

            // Then
            for run in runs {
                #expect(run.status == 0, "\(run.error)")
                #expect(!Self.actsOnTerminal(run.output), "\(run.output.debugDescription)")
                #expect(!run.output.contains("\nFORGED"))
                #expect(run.output.contains("Evil␛[31mRed"))
                #expect(run.output.contains("<U+202E>"))
            }
            #expect(
                runs[0].output.split(separator: "\n", omittingEmptySubsequences: false).count == 6,
                "\(runs[0].output)")  // title, header, 1 row, blank, notice, end
        }

        @Test("a hostile reason from the shop is shown escaped too")
        func hostileRefusal() async throws {
            #expect(
                Terminal.escaped("HTTP 409: \u{1B}[2Jgone\r\n") == "HTTP 409: ␛[2Jgone␍␊")
            #expect(Terminal.escaped("plain, ünïcödé, emoji 🎵") == "plain, ünïcödé, emoji 🎵")
            #expect(Terminal.escaped("\u{7F}\u{85}\u{2066}") == "␡<U+85><U+2066>")
        }

        @Test(
            "a value an order cannot take is a wrong command line: exit code 2",
            arguments: [
                (["--item", "Tea:2:3,50"], "--item takes NAME:QUANTITY:PRICE"),
                (["--item", "Tea:2:0x10"], "--item takes NAME:QUANTITY:PRICE"),
                (["--item", "Tea:2:3.5abc"], "--item takes NAME:QUANTITY:PRICE"),
                (["--item", "Tea:2:1e3"], "--item takes NAME:QUANTITY:PRICE"),
                (["--item", "Tea:\(Int.max):1"], "--item: An item may have a quantity of at most 10,000"),
                (["--card", "4111 1111 1111 1112"], "--card: This card number is not valid"),
                (["--expires", "99999-01"], "--expires: Enter the month the card expires."),
            ])
        func strictValues(change: [String], message: String) async throws {
            // Given
            let demo = DemoRunner()

            // When: the valid order with one value replaced
            let run = try await demo.run(OfflineWritesDemoTests.createArguments + change + ["--offline"])

            // Then
            #expect(run.status == 2, "\(run.output)\(run.error)")
            #expect(run.error.contains(message), "\(run.error)")
            #expect(try await demo.run(["orders", "--offline"]).output.contains("Orders (4)"))
        }

        // Apple platforms only: there the transfer is cancelled at the limit. Linux's
        // FoundationNetworking goes on receiving for a while after it is stopped, with no
        // back-pressure, so the peak there varies from run to run (README, reliability table).
        @Test(
            "a 200 MB answer is refused with the demo's peak memory under 100 MB",
            .enabled(if: BoundedTransferPlatform.stopsAtTheLimit, "Linux buffers past the stop"))
        func hugeAnswerBoundedMemory() async throws {
            // Given: an API that sends 200 MB, not announced
            let demo = DemoRunner()
            let server = try TestHTTPServer(["/melodies": .largeBody(bytes: 200_000_000, announced: false)])
            defer { server.stop() }

            // When
            let run = try await demo.run([
                "melodies", "--api", server.baseURL.absoluteString, "--cache", "network-only",
            ])

            // Then: every child of this process so far (all small) peaked below 100 MB, the demo too
            #expect(run.status == 1)
            #expect(run.error.contains("cannot read"), "\(run.error)")
            let peak = try #require(DemoRunner.largestChildResidentBytes())
            #expect(peak < 100 << 20, "peak resident memory \(peak >> 20) MB")
        }

        @Test("an id holding control characters is named as the demo shows it, and reaches the API as itself")
        func idWithControlCharacters() async throws {
            // Given
            let demo = DemoRunner()
            let server = try TestHTTPServer(["/orders/%1B%5B31mX": .status(404, body: "{}")])
            defer { server.stop() }

            // When: the id as the demo prints it
            let run = try await demo.run(["orders", "show", "␛[31mX", "--api", server.baseURL.absoluteString])

            // Then
            #expect(server.requests == ["GET /orders/%1B%5B31mX HTTP/1.1"])
            #expect(run.status == 1 && !run.error.contains("\u{1B}"), "\(run.error)")
        }

        @Test("an id is sent escaped once; a blank id is a wrong command line")
        func idsEncodedOnce() async throws {
            // Given
            let demo = DemoRunner()
            let server = try TestHTTPServer(["/orders/%20abc123": .status(404, body: "{}")])
            defer { server.stop() }

            // When
            let spaced = try await demo.run([
                "orders", "show", " abc123", "--api", server.baseURL.absoluteString,
            ])
            let blank = try await demo.run(["orders", "show", ""])
            let spaces = try await demo.run(["orders", "delete", "   "])
            let others = [
                try await demo.run(["orders", "retry", " "]),
                try await demo.run(["orders", "discard", "\t"]),
                try await demo.run(["orders", "show", "\n"]),
            ]

            // Then
            #expect(server.requests == ["GET /orders/%20abc123 HTTP/1.1"])
            #expect(spaced.status == 1)
            #expect(blank.status == 2)
            #expect(spaces.status == 2 && spaces.error.contains("say which order"), "\(spaces.error)")
            #expect(others.allSatisfy { $0.status == 2 }, "\(others.map(\.error))")
            #expect(blank.error.contains("say which order"))
        }

        @Test(
            "a bad DEMO_API_URL stops neither --help, --version nor --offline; with the API used it is an error"
        )
        func badEnvironmentURL() async throws {
            // Given
            let demo = DemoRunner()
            let garbage = ["DEMO_API_URL": "garbage"]

            // When / Then
            #expect(try await demo.run(["--help"], environment: garbage).status == 0)
            #expect(try await demo.run(["--version"], environment: garbage).status == 0)
            #expect(try await demo.run(["orders", "--offline"], environment: garbage).status == 0)
            let used = try await demo.run(["orders"], environment: garbage)
            #expect(used.status == 2)
            #expect(used.error.contains("'garbage' is not an http or https URL"))
        }

    }

#endif
