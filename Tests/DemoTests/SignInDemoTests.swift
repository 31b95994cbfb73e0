import Foundation
import MelodiesTesting
import OrdersTesting
import Services
import Testing

#if SUBPROCESSES  // where the demo is built: macOS and Linux (Package.swift)
    @testable import Demo
#endif

// Runs the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES

    /// `demo login`, `logout` and `whoami` against a shop that wants a signed-in user.
    @Suite("demo: signing in")
    struct SignInDemoTests {
        let shop = TestOrdersShop(orders: Order.samples)
        let authority: TestTokenAuthority
        let server: TestHTTPServer
        let demo = DemoRunner()

        init() throws {
            let shop = shop
            authority = TestTokenAuthority(users: ["amy": "apple pie", "bob": "battery"]) { _ in shop.respond
            }
            server = try TestHTTPServer(responder: authority.respond)
        }

        var api: [String] { ["--api", server.baseURL.absoluteString] }

        /// `demo login --user NAME` with `password` on standard input.
        func login(_ user: String, _ password: String) async throws -> DemoRunner.Run {
            let (input, output, errors) = (Pipe(), Pipe(), Pipe())
            let process = try demo.start(
                ["login", "--user", user] + api, errors: errors, input: input, output: output)
            input.fileHandleForWriting.write(Data((password + "\n").utf8))
            try input.fileHandleForWriting.close()
            return await DemoRunner.offThePool {
                let out = output.fileHandleForReading.readDataToEndOfFile()
                let err = errors.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return DemoRunner.Run(
                    status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                    error: String(decoding: err, as: UTF8.self))
            }
        }

        @Test(
            "a wrong password is refused; signed in, the sign-in is kept for its owner only, never the password"
        )
        func loginKeepsTheSignIn() async throws {
            defer { server.stop() }
            // When
            let wrong = try await login("amy", "pear")
            let right = try await login("amy", "apple pie")
            let whoami = try await demo.run(["whoami"] + api)
            let listed = try await demo.run(["orders"] + api)
            // Then
            #expect(wrong.status == 1 && wrong.error.contains("not signed in"), "\(wrong.error)")
            #expect(
                right.status == 0 && right.output.contains("Signed in as amy."),
                "\(right.output) \(right.error)")
            #expect(whoami.status == 0 && whoami.output == "amy\n")
            #expect(listed.status == 0 && authority.requests.contains("amy GET /orders"), "\(listed.error)")
            let file = demo.database.appendingPathExtension("signin")
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let kept = try Data(contentsOf: file)
            #expect(kept.range(of: Data("apple pie".utf8)) == nil)
            #expect(!listed.output.contains("Bearer") && !listed.error.contains("Bearer"))
        }

        @Test(
            "signed out, sync exits 1 naming who must sign in and how many changes wait; signed in again, they go"
        )
        func signedOutSyncSaysSo() async throws {
            defer { server.stop() }
            // Given: Amy created an order while the shop could not be reached, then signed out
            _ = try await login("amy", "apple pie")
            let created = try await demo.run(OfflineWritesDemoTests.createArguments + ["--offline"] + api)
            let logout = try await demo.run(["logout"] + api)
            // When
            let signedOut = try await demo.run(["orders", "sync"] + api)
            _ = try await login("amy", "apple pie")
            let signedIn = try await demo.run(["orders", "sync"] + api)
            // Then
            #expect(created.status == 0, "\(created.error)")
            #expect(
                logout.output.contains("Signed out amy; 1 change wait for their next sign-in."),
                "\(logout.output)")
            #expect(signedOut.status == 1, "\(signedOut.output)")
            #expect(
                signedOut.error.contains("signed out: sign in as amy to send 1 change"), "\(signedOut.error)")
            #expect(signedIn.status == 0, "\(signedIn.output) \(signedIn.error)")
            #expect(shop.storedOrders.contains { $0.email == "eve@example.com" })
        }

        @Test("on a device keeping Amy's orders, Bob's offline listing names her and shows none of them")
        func otherAccountSeesNoPage() async throws {
            defer { server.stop() }
            // Given: Amy listed the shop's orders, then Bob signed in on the same device
            _ = try await login("amy", "apple pie")
            let amys = try await demo.run(["orders"] + api)
            _ = try await demo.run(["logout"] + api)
            _ = try await login("bob", "battery")
            // When
            let bobs = try await demo.run(["orders", "--offline"] + api)
            // Then: Amy saw hers; Bob is told whose they are and sees none
            let name = try #require(Order.samples.first?.lastName)
            #expect(amys.status == 0 && amys.output.contains(name), "\(amys.output)")
            #expect(!bobs.output.contains(name), "\(bobs.output)")
            #expect((bobs.output + bobs.error).contains("amy"), "\(bobs.output)\(bobs.error)")
        }

        @Test(
            "logout --erase says what it drops, then leaves nothing of the account in any table of the file")
        func logoutEraseLeavesNothing() async throws {
            defer { server.stop() }
            // Given: a customer and an order naming it made offline, and the order sent and
            // answered (so the id map holds it)
            _ = try await login("amy", "apple pie")
            let customer = try await demo.run([
                "customers", "create", "--name", "Zed Zebra", "--email", "zed@example.com", "--offline",
            ])
            let id = customer.output.split(separator: " ").dropFirst(2).first.map(String.init) ?? ""
            _ = try await demo.run(
                OfflineWritesDemoTests.createArguments + ["--customer", id, "--offline"] + api)
            let sent = try await demo.run(OfflineWritesDemoTests.createArguments + ["--offline"] + api)
            let sentID =
                sent.output.split(separator: "\n").first?.split(separator: " ").last.map(String.init) ?? ""
            _ = try await demo.run(["orders", "sync"] + api)
            // When
            let erased = try await demo.run(["logout", "--erase"] + api)
            // Then: every change counted (the customer, the order naming it), nothing of the account
            // left in any row of any table, nor in the file's bytes
            #expect(erased.status == 0)
            #expect(
                erased.output.contains("Erasing amy's orders, customers and 2 changes not sent yet"),
                "\(erased.output)")
            let left = try await Self.rows(
                in: demo.folder.file("demo.sqlite"),
                containingAny: [
                    "amy", "Zed Zebra", "zed@example.com", "eve@example.com", id, sentID,
                ])
            #expect(!sentID.isEmpty)
            #expect(left.isEmpty, "\(left)")
            for name in ["demo.sqlite", "demo.sqlite-wal"] {
                let url = demo.folder.file(name)
                guard let bytes = try? Data(contentsOf: url) else { continue }
                #expect(bytes.range(of: Data("eve@example.com".utf8)) == nil, "\(name)")
                #expect(bytes.range(of: Data("zed@example.com".utf8)) == nil, "\(name)")
            }
            let whoami = try await demo.run(["whoami"] + api)
            #expect(whoami.status == 1 && whoami.output.contains("Nobody is signed in."))
        }
    }

#endif

#if SUBPROCESSES
    extension SignInDemoTests {
        /// Each row of every table of the file at `url` that holds one of `words`, as
        /// `table: row`: what an erase left behind.
        static func rows(in url: URL, containingAny words: [String]) async throws -> [String] {
            let database = try Database(at: url)
            return try await database.read { connection -> [String] in
                let tables = try connection.query(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                ) { try $0.string("name") }
                var found: [String] = []
                for table in tables {
                    let rows = try connection.query("SELECT * FROM \"\(table)\"")
                    for row in rows {
                        let text = row.values.map { value -> String in
                            switch value {
                            case .text(let text): text
                            case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
                            default: ""
                            }
                        }
                        .joined(separator: " | ")
                        if words.contains(where: { !$0.isEmpty && text.contains($0) }) {
                            found.append("\(table): \(text)")
                        }
                    }
                }
                return found
            }.value
        }

        @Test("the 'Signing in' article's session prints what the article shows")
        func readmeSession() async throws {
            defer { server.stop() }
            // Given: the session, as the article prints it
            let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            let section = try String(
                contentsOf: here.appendingPathComponent("../../Sources/Services/Services.docc/SigningIn.md")
                    .standardized, encoding: .utf8)
            let session = try #require(
                section.components(separatedBy: "```console\n").dropFirst().first?
                    .components(separatedBy: "```").first)
            var steps: [(command: String, expected: [String])] = []
            for line in session.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
                if line.hasPrefix("$ ") {
                    steps.append((String(line.dropFirst(2)), []))
                } else if !steps.isEmpty {
                    steps[steps.count - 1].expected.append(String(line))
                }
            }
            try #require(steps.count == 5)

            for (command, expected) in steps {
                // When: each command, run as the article writes it
                let run: DemoRunner.Run
                if command.hasPrefix("echo '"), let pipe = command.range(of: "' | demo ") {
                    let password = String(
                        command[command.index(command.startIndex, offsetBy: 6)..<pipe.lowerBound])
                    let words = command[pipe.upperBound...].split(separator: " ").map(String.init)
                    run = try await login(words[2], password)
                } else {
                    let words = command.split(separator: " ").dropFirst().map(String.init)
                    run = try await demo.run(words + api)
                }
                // Then
                let printed = (run.output + run.error).split(separator: "\n").map(String.init)
                #expect(printed == expected, "\(command)")
            }
        }
    }
#endif
