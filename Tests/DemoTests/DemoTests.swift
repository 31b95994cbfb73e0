import Foundation
import MelodiesTesting
import OrdersTesting
import Testing

#if SUBPROCESSES  // where the demo is built: macOS and Linux (Package.swift)
    @testable import Demo
#endif

// Runs the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES

    /// The example as a user runs it: the built executable, a temporary database, `NO_COLOR` set.
    @Suite("demo executable")
    struct DemoTests {
        let demo = DemoRunner()
        /// An API that is down, for the test's life: the first run is offline, at once.
        let down: ClosedPort
        /// `down`'s address.
        var unreachable: String { down.baseURL.absoluteString }

        init() throws {
            down = try ClosedPort()
        }

        /// A loopback server answering like `Examples/api/server.py` with the sample catalogue.
        func sampleServer() throws -> TestHTTPServer {
            let temporary = TemporaryFolder("DemoAPI")
            let folder = temporary.url
            try SampleAPI.write(to: folder)
            let melodies = try String(
                contentsOf: folder.appendingPathComponent("melodies.json"), encoding: .utf8)
            let orders = try String(contentsOf: folder.appendingPathComponent("orders.json"), encoding: .utf8)
            return try TestHTTPServer([
                "/melodies": .status(200, body: melodies), "/orders": .status(200, body: orders),
            ])
        }

        @Test("the first run, offline, shows the seeded melodies and says they are the offline copy")
        func offlineFirstRunMelodies() async throws {
            // When
            let run = try await demo.run(["melodies", "--api", unreachable])

            // Then
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output.contains("Melodies (12)"))
            #expect(run.output.contains("Clair de Lune"))
            #expect(run.output.contains("5:02"))
            #expect(run.output.contains("Offline: showing melodies saved just now."))
            #expect(run.error.isEmpty)
        }

        @Test("the first run, offline, shows the seeded orders")
        func offlineFirstRunOrders() async throws {
            // When
            let run = try await demo.run(["orders", "--api", unreachable])

            // Then
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output.contains("Orders (4)"))
            #expect(run.output.contains("Amy Apple"))
            #expect(run.output.contains("Offline: showing orders saved just now."))
        }

        @Test("with --api the demo fetches and caches; then --offline shows the same data from the cache")
        func onlineThenOffline() async throws {
            // Given
            let server = try sampleServer()

            // When
            let online = try await demo.run(["melodies", "--api", server.baseURL.absoluteString])
            server.stop()
            let offline = try await demo.run(["melodies", "--offline"])

            // Then
            #expect(online.status == 0, "\(online.error)")
            #expect(
                online.output.contains("Fresh from \(server.baseURL.absoluteString), saved for offline use."))
            #expect(offline.status == 0, "\(offline.error)")
            #expect(offline.output.contains("Offline: showing melodies saved"))
            let table = { (text: String) in text.split(separator: "\n").prefix(14) }
            #expect(table(online.output) == table(offline.output))
        }

        @Test("an order created offline is listed, shown, and deleted, across runs")
        func createListShowDelete() async throws {
            // When
            let created = try await demo.run([
                "orders", "create", "--api", unreachable, "--first-name", "Eve", "--last-name", "Elder",
                "--email", "eve@example.com", "--street", "5 Elm St", "--city", "Boston", "--zip", "02101",
                "--card", "4111 1111 1111 1111", "--expires", "2031-01", "--cvv", "123", "--item",
                "Tea:2:3.50",
                "--shipping", "one-day",
            ])

            // Then
            #expect(created.status == 0, "\(created.error)")
            #expect(created.output.contains("Card      •••• 1111"))
            #expect(!created.output.contains("4111 1111"))
            let id = try #require(
                created.output.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
            let listed = try await demo.run(["orders", "--api", unreachable])
            #expect(listed.output.contains("Eve Elder"))
            #expect(listed.output.contains("Orders (5)"))
            let shown = try await demo.run(["orders", "show", id, "--offline"])
            #expect(shown.output.contains("2 × Tea"))
            let deleted = try await demo.run(["orders", "delete", id, "--offline"])
            #expect(deleted.status == 0, "\(deleted.error)")
            #expect(try await demo.run(["orders", "--offline"]).output.contains("Orders (4)"))
        }

        @Test(
            "a wrong form is refused with a message per field, and exit code 2: a value the order cannot take"
        )
        func validationMessages() async throws {
            // When
            let run = try await demo.run([
                "orders", "create", "--offline", "--first-name", "Eve", "--email", "eve", "--item", "Tea:1:1",
            ])

            // Then
            #expect(run.status == 2)
            #expect(run.error.contains("--last-name: Enter a last name."))
            #expect(run.error.contains("--email: Enter an email address like name@example.com."))
            #expect(run.error.contains("--card: Enter the card number, 13 to 19 digits."))
            #expect(!run.error.contains("--item:"))
        }

        @Test(
            "a wrong command line is one line on standard error and exit code 2",
            arguments: [
                (["melodies", "--bogus"], "unknown option '--bogus'"),
                (
                    ["melodies", "--api", "ftp://example.com"],
                    "'ftp://example.com' is not an http or https URL"
                ),
                (["melodies", "--api"], "--api needs a value"),
                (["songs"], "unknown command 'songs'"),
                (["orders", "show"], "say which order: demo orders show ID"),
                ([], "say what to show"),
                (["orders", "create", "--expires", "soon"], "--expires takes a month as YYYY-MM"),
            ])
        func usageErrors(arguments: [String], message: String) async throws {
            // When
            let run = try await demo.run(arguments)

            // Then
            #expect(run.status == 2)
            #expect(run.error.contains(message), "\(run.error)")
            #expect(run.error.split(separator: "\n").count == 1)
            #expect(run.output.isEmpty)
        }

        @Test(
            "a file that is not a database: one line naming it and what to do, exit code 1, the file untouched"
        )
        func foreignDatabase() async throws {
            // Given
            let file = demo.database
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let garbage = Data(
                "this is a shopping list, not a database\n".utf8 + (0..<4000).map { UInt8($0 % 251) })
            try garbage.write(to: file)

            // When
            let run = try await demo.run(["melodies", "--api", unreachable])

            // Then
            #expect(run.status == 1)
            #expect(run.error.contains(file.path))
            #expect(run.error.contains("not a database; move it away or choose another path"))
            #expect(run.error.split(separator: "\n").count == 1)
            #expect(try Data(contentsOf: file) == garbage)
        }

        @Test("the database file is readable by its owner only")
        func ownerOnlyDatabase() async throws {
            // When
            _ = try await demo.run(["melodies", "--api", unreachable])

            // Then
            let attributes = try FileManager.default.attributesOfItem(atPath: demo.database.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }

        @Test("piped output carries no escape codes, even with colour allowed")
        func pipedOutputIsPlain() async throws {
            // When
            let run = try await demo.run(
                ["orders", "--api", unreachable], environment: ["NO_COLOR": "", "TERM": "xterm-256color"])

            // Then
            #expect(run.status == 0)
            #expect(!run.output.contains("\u{1B}"))
            #expect(!run.error.contains("\u{1B}"))
        }

        @Test("long cells are cut with an ellipsis to fit the terminal width")
        func fitsWidth() async throws {
            // When
            let run = try await demo.run(["melodies", "--api", unreachable], environment: ["COLUMNS": "50"])

            // Then
            let tableLines = run.output.split(separator: "\n").dropFirst().prefix(13)
            #expect(tableLines.allSatisfy { $0.count <= 50 })
            #expect(run.output.contains("…"))
        }

        @Test("the sample API's files hold the catalogue the database is seeded with")
        func sampleFilesMatchCatalogue() async throws {
            // Given
            let temporary = TemporaryFolder("DemoAPI")
            let folder = temporary.url
            let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Examples/api").standardized

            // When
            try SampleAPI.write(to: folder)

            // Then
            for name in ["melodies.json", "orders.json"] {
                #expect(
                    try Data(contentsOf: folder.appendingPathComponent(name))
                        == Data(contentsOf: committed.appendingPathComponent(name)),
                    "run `swift run demo export-sample-api Examples/api` to refresh \(name)")
            }
        }
    }

#endif
