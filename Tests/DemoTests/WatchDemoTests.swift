import Foundation
import MelodiesTesting
import OrdersTesting
import Testing

#if SUBPROCESSES  // where the demo is built: macOS and Linux (Package.swift)
    @testable import Demo
#endif

// Runs the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES

    /// `demo orders watch` as a user meets it: left running while the API comes back and another
    /// demo writes the same file.
    @Suite("demo: orders watch")
    struct WatchDemoTests {
        @Test(
            "orders watch sends the waiting changes by itself once the API is up, shows them sent, shows another demo's order, and ends with 0 when its input closes"
        )
        func watchSyncsAndFollows() async throws {
            // Given: three orders created while the shop cannot be reached. It closes every
            // connection unanswered rather than being stopped (a port left free may be taken by
            // another test's server meanwhile), and not with 503s: each would count a failure,
            // and five, which full jitter can bring within a second, make the changes stuck
            // before the test brings the shop back.
            let demo = DemoRunner()
            let shop = TestOrdersShop(orders: Order.samples)
            shop.isUnreachable = true
            let server = try TestHTTPServer(responder: shop.respond)
            defer { server.stop() }
            let api = server.baseURL.absoluteString
            try await OfflineWritesDemoTests.queueCreates(3, in: demo.database)

            // When: the watch starts while the shop is down
            let watch = try WatchedProcess(demo, ["orders", "watch", "--api", api])
            #expect(await watch.output(containing: "3 changes waiting to be sent."))
            #expect(shop.writes.isEmpty)
            // ... and the shop can be reached
            shop.isUnreachable = false

            // Then: each change reaches the shop once, and the screen says nothing waits
            #expect(await watch.output(containing: OrdersSyncWording.nothingWaits))
            #expect(shop.storedOrders.count == Order.samples.count + 3)
            #expect(shop.storedOrders.filter { $0.email == "eve@example.com" }.count == 3)

            // When: another demo creates an order online
            var zed = OfflineWritesDemoTests.createArguments
            if let first = zed.firstIndex(of: "Eve") { zed[first] = "Zed" }
            let created = try await demo.run(zed + ["--api", api])
            #expect(created.status == 0)
            // Then
            #expect(await watch.output(containing: "Zed Elder"))

            // When: its input closes
            let status = await watch.closeInput()
            // Then
            #expect(status == 0)
        }
    }

    /// `demo orders watch --refresh` on one device, and an order created on another (another
    /// database file, the same shop).
    @Suite("demo: orders watch, two devices")
    struct WatchTwoDevicesDemoTests {
        @Test("orders watch --refresh 1 shows an order another device created within its refresh")
        func watchShowsAnotherDevicesOrder() async throws {
            // Given: a phone watching, the shop up
            let (phone, laptop) = (DemoRunner(), DemoRunner())
            let shop = TestOrdersShop(orders: Order.samples)
            let server = try TestHTTPServer(responder: shop.respond)
            defer { server.stop() }
            let api = server.baseURL.absoluteString
            let watch = try WatchedProcess(phone, ["orders", "watch", "--api", api, "--refresh", "1"])
            #expect(await watch.output(containing: OrdersSyncWording.nothingWaits))

            // When: the laptop creates an order
            var zed = OfflineWritesDemoTests.createArguments
            if let first = zed.firstIndex(of: "Eve") { zed[first] = "Zed" }
            let created = try await laptop.run(zed + ["--api", api])

            // Then: the phone shows it, refreshed from the shop
            #expect(created.status == 0)
            #expect(await watch.output(containing: "Zed Elder"))
            #expect(await watch.closeInput() == 0)
        }
    }

    /// A demo left running, its standard input a pipe the test closes, its output gathered as it
    /// comes.
    final class WatchedProcess: @unchecked Sendable {
        // `@unchecked Sendable` is sound: `text` and `waiters` are only touched while holding
        // `lock`; `process` and the pipes are set in `init` and only used through their own
        // thread-safe calls afterwards.
        private let lock = NSLock()
        private var text = ""
        private var waiters: [(String, Seal<Void>)] = []
        private let process: ChildProcess
        private let input = Pipe()
        private let output = Pipe()

        init(_ demo: DemoRunner, _ arguments: [String]) throws {
            process = try demo.start(arguments, input: input, output: output)
            output.fileHandleForReading.readabilityHandler = { [weak self] handle in
                self?.gathered(handle.availableData)
            }
        }

        private func gathered(_ data: Data) {
            let met = lock.withLock { () -> [Seal<Void>] in
                text += String(decoding: data, as: UTF8.self)
                let met = waiters.filter { text.contains($0.0) }.map(\.1)
                waiters.removeAll { text.contains($0.0) }
                return met
            }
            for seal in met { seal.fulfill(()) }
        }

        /// Whether the output comes to contain `line` within 60 seconds.
        func output(containing line: String, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool
        {
            let (promise, seal) = Promise<Void>.pending()
            lock.withLock {
                if text.contains(line) { seal.fulfill(()) } else { waiters.append((line, seal)) }
            }
            let seen: Void? = await PromiseExpectations.value(
                of: promise, timeout: 60, sourceLocation: sourceLocation)
            if seen == nil { Issue.record("the output so far:\n\(lock.withLock { text })") }
            return seen != nil
        }

        /// Closes the demo's input and gives its exit status.
        func closeInput() async -> Int32 {
            try? input.fileHandleForWriting.close()
            await DemoRunner.waitForExit(process)
            output.fileHandleForReading.readabilityHandler = nil
            return process.terminationStatus
        }

        deinit {
            if process.isRunning { process.terminate() }
        }
    }

#endif
