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

    @Suite("demo: no secret printed")
    struct SecretsTests {
        @Test(
            "a rejected address is repeated without its password, from --api or DEMO_API_URL",
            arguments: ["ftp://u:s3cret@127.0.0.1:8080/", "u:s3cret@127.0.0.1:8080", "http://u:s3cret@[::1/"])
        func rejectedAddressHidesPassword(address: String) async throws {
            // Given
            let demo = DemoRunner()

            // When
            let flag = try await demo.run(["orders", "--api", address])
            let variable = try await demo.run(["orders"], environment: ["DEMO_API_URL": address])

            // Then
            for run in [flag, variable] {
                #expect(run.status == 2)
                #expect(run.error.contains("is not an http or https URL"), "\(run.error)")
                #expect(!run.output.contains("s3cret") && !run.error.contains("s3cret"), "\(run.error)")
            }
        }

        @Test(
            "a password in --api is never printed, with a user name or without one",
            arguments: ["user:secret@", ":secret@"])
        func credentialsNotShown(credentials: String) async throws {
            // Given
            let demo = DemoRunner()
            let server = try TestHTTPServer(responder: TestOrdersShop().respond)
            defer { server.stop() }
            let api = "http://\(credentials)127.0.0.1:\(server.port)/"

            // When
            let run = try await demo.run(["orders", "--api", api])

            // Then
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output.contains("Fresh from http://127.0.0.1:\(server.port)/"))
            #expect(!run.output.contains("secret") && !run.error.contains("secret"))
        }
    }
#endif
