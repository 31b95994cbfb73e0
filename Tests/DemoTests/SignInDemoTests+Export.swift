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
        @Test("the support bundle of a signed-in shop holds no token, no password, no card and no body")
        func exportHoldsNoSecret() async throws {
            defer { server.stop() }
            // Given: amy signed in (her tokens kept beside the database), and an order paid by card
            // made offline
            _ = try await login("amy", "apple pie")
            let created = try await demo.run(OfflineWritesDemoTests.createArguments + ["--offline"] + api)
            #expect(created.status == 0, "\(created.error)")
            let kept = try Data(contentsOf: demo.database.appendingPathExtension("signin"))
            let tokens = try Self.strings(in: JSONSerialization.jsonObject(with: kept)).filter {
                $0.count >= 8
            }
            #expect(!tokens.isEmpty, "no token kept to look for")

            // When
            let exported = try await demo.run(["status", "--json", "--offline"] + api)

            // Then: the owner is named; nothing secret or personal is
            #expect(exported.status == 0, "\(exported.error)")
            #expect(
                exported.output.contains(#""owner":"amy""#) || exported.output.contains(#""owner" : "amy""#))
            for secret in tokens + ["apple pie", "4111", "Bearer", "eve@example.com", "Elder", "5 Elm St"] {
                #expect(!exported.output.contains(secret), "'\(secret.prefix(12))' in the export")
            }
        }

        /// Every string in `json`, however deep.
        static func strings(in json: Any) -> [String] {
            switch json {
            case let text as String: [text]
            case let array as [Any]: array.flatMap(strings(in:))
            case let object as [String: Any]: object.values.flatMap(strings(in:))
            default: []
            }
        }
    }
#endif
