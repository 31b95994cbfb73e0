import Foundation
import MelodiesTesting
import OrdersTesting
import Services
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

    @Suite("demo: the database file")
    struct DatabaseFileDemoTests {
        @Test(
            "eight processes creating orders on a database that does not exist yet all succeed",
            .timeLimit(.minutes(10)))
        @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // .timeLimit
        func concurrentFirstRun() async throws {
            for round in 0..<3 {
                // Given: a new file, eight creates started at once
                let demo = DemoRunner()
                let errors = (0..<8).map { _ in Pipe() }
                let processes = try errors.map { pipe in
                    try demo.start(OfflineWritesDemoTests.createArguments + ["--offline"], errors: pipe)
                }

                // When
                for process in processes {
                    await DemoRunner.waitForExit(process)
                }
                let listed = try await demo.run(["orders", "--offline"])

                // Then
                let said = errors.map {
                    String(decoding: $0.fileHandleForReading.availableData, as: UTF8.self)
                }
                #expect(
                    processes.map(\.terminationStatus) == Array(repeating: 0, count: 8),
                    "round \(round): \(said.filter { !$0.isEmpty })")
                #expect(listed.output.contains("Orders (12)"), "round \(round): \(listed.output)")
            }
        }

        @Test(
            "a failed open as another user leaves no WAL or shared-memory file to stop the owner's next write",
            .enabled(
                if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                "runs the demo as another user: needs root and setpriv"))
        func failedOpenAsAnotherUser() async throws {
            // Given: the owner's database, readable by others, in a folder anyone may write
            let demo = DemoRunner()
            _ = try await demo.run(["orders", "--offline"])
            let file = demo.database
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o777], ofItemAtPath: file.deletingLastPathComponent().path)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)

            // When: user nobody opens it
            let other = try ChildProcess(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                [
                    "--reuid=65534", "--regid=65534", "--clear-groups", DemoRunner.executable.path, "orders",
                    "--offline", "--database", file.path,
                ])
            await DemoRunner.waitForExit(other)

            // Then
            #expect(other.terminationStatus == 1)
            for suffix in ["-wal", "-shm"] {
                let sidecar = file.path + suffix
                let owner =
                    (try? FileManager.default.attributesOfItem(atPath: sidecar))?[.ownerAccountID]
                    as? NSNumber
                #expect(owner == nil || owner?.intValue == 0, "\(sidecar) left by the other user")
            }
            #expect(try await demo.run(OfflineWritesDemoTests.createArguments + ["--offline"]).status == 0)
        }

        @Test(
            "a file a newer app wrote is refused offline too, listed or shown, in one sentence",
            arguments: [["orders", "--offline"], ["orders", "show", "abc123", "--offline"]])
        func newerModelIsRefusedOffline(arguments: [String]) async throws {
            // Given: a file whose orders a newer version of the app wrote (model 9)
            let demo = DemoRunner()
            _ = try await demo.run(OfflineWritesDemoTests.createArguments + ["--offline"])
            let database = try Database(at: demo.database)
            _ = try await database.write { connection in
                try connection.execute(
                    "INSERT OR REPLACE INTO offline_models (feature, version) VALUES ('orders', 9)")
            }.value

            // When
            let run = try await demo.run(arguments)

            // Then: refused, saying why once, and nothing listed
            #expect(run.status == 1, "\(run.output)")
            #expect(run.error.contains("saved by a newer version of the app"), "\(run.error)")
            #expect(!run.error.contains("..") && !run.output.contains("Eve"), "\(run.output)\(run.error)")
        }

        @Test("a database path that cannot be created leaves no folder behind")
        func failedDeepPathLeavesNothing() async throws {
            // Given: a file name longer than any file system takes, under folders that do not exist
            let temporary = TemporaryFolder("HardeningTests")
            let top = temporary.url
            let file = top.appendingPathComponent("a/b/c").appendingPathComponent(
                String(repeating: "x", count: 300))

            // When
            let run = try await DemoRunner().run(["orders", "--offline"], database: file)

            // Then
            #expect(run.status == 1)
            #expect(!FileManager.default.fileExists(atPath: top.path))
        }
    }
#endif
