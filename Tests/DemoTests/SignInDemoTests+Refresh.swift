import Foundation
import MelodiesTesting
import OrdersTesting
import Testing

#if SUBPROCESSES  // where the demo is built: macOS and Linux (Package.swift)
    @testable import Demo
#endif

// Runs the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES
    extension SignInDemoTests {
        @Test(
            "a renewed sign-in is saved over the kept one: the sync sends each change once, amy stays signed in"
        )
        func refreshKeepsTheSignIn() async throws {
            defer { server.stop() }
            // Given: amy signed in, two orders made offline, then her token expired at the shop
            _ = try await login("amy", "apple pie")
            for email in ["one@example.com", "two@example.com"] {
                var arguments = OfflineWritesDemoTests.createArguments
                arguments[arguments.firstIndex(of: "eve@example.com") ?? 0] = email
                let created = try await demo.run(arguments + ["--offline"] + api)
                #expect(created.status == 0, "\(created.error)")
            }
            authority.expireTokens()

            // When
            let sync = try await demo.run(["orders", "sync"] + api)
            let whoami = try await demo.run(["whoami"] + api)

            // Then
            #expect(sync.status == 0, "\(sync.output) \(sync.error)")
            #expect(authority.refreshes == 1)
            let sent = shop.storedOrders.map(\.email).filter {
                $0.hasSuffix("@example.com") && $0 != "eve@example.com"
            }
            #expect(sent.filter { $0 == "one@example.com" }.count == 1)
            #expect(sent.filter { $0 == "two@example.com" }.count == 1)
            #expect(whoami.status == 0 && whoami.output == "amy\n", "\(whoami.output) \(whoami.error)")
        }

        @Test(
            "signed out, or signed in as bob, the device shows none of amy's orders; amy again, all of them")
        func readsBelongToTheAccount() async throws {
            defer { server.stop() }
            // Given: amy's orders listed (the copy is hers) and one made offline
            _ = try await login("amy", "apple pie")
            _ = try await demo.run(["orders"] + api)
            _ = try await demo.run(OfflineWritesDemoTests.createArguments + ["--offline"] + api)
            let amys = try await demo.run(["orders", "--offline"] + api)

            // When
            _ = try await demo.run(["logout"] + api)
            let signedOut = try await demo.run(["orders", "--offline"] + api)
            _ = try await login("bob", "battery")
            let bob = try await demo.run(["orders", "--offline"] + api)
            _ = try await demo.run(["logout"] + api)
            _ = try await login("amy", "apple pie")
            let again = try await demo.run(["orders", "--offline"] + api)

            // Then
            #expect(amys.output.contains("eve@example.com"), "\(amys.output) \(amys.error)")
            for run in [signedOut, bob] {
                #expect(!run.output.contains("@example.com"), "\(run.output)")
                #expect(run.error.contains("sign in as amy"), "\(run.error)")
            }
            #expect(!bob.error.contains("Sign in to continue"), "bob is signed in: \(bob.error)")
            // The same rows; the copy's age in the notice ("saved just now", "1 minute ago") moves on.
            let rows = { (output: String) in output.split(separator: "\n").filter { !$0.hasPrefix("Showing") }
            }
            #expect(rows(again.output) == rows(amys.output), "\(again.output) \(again.error)")
        }

        @Test("signed out with nothing of amy's waiting, the device still shows none of her listed orders")
        func listedCopyBelongsToTheAccount() async throws {
            defer { server.stop() }
            // Given: amy's orders listed (the copy is hers), nothing waiting
            _ = try await login("amy", "apple pie")
            let amys = try await demo.run(["orders"] + api)
            _ = try await demo.run(["logout"] + api)
            // When
            let signedOut = try await demo.run(["orders", "--offline"] + api)
            // Then
            #expect(amys.output.contains("@"), "\(amys.output) \(amys.error)")
            #expect(!signedOut.output.contains("@"), "\(signedOut.output)")
            #expect(signedOut.error.contains("sign in as amy"), "\(signedOut.error)")
        }
    }
#endif
