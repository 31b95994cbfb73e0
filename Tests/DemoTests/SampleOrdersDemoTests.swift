import Foundation
import OrdersTesting
import Testing

#if SUBPROCESSES  // where the demo is built: macOS and Linux (Package.swift)
    @testable import Demo
#endif

#if SUBPROCESSES

    /// A fresh machine's sample orders: never called the shop's until the shop answered.
    @Suite("demo: the sample orders")
    struct SampleOrdersDemoTests {
        @Test(
            "a fresh machine lists its sample orders as 'sample', never 'synced', until the shop lists them")
        func sampleIsNotSynced() async throws {
            // Given: a fresh database, the shop up
            let demo = DemoRunner()
            let shop = TestOrdersShop(orders: Order.samples)
            let server = try TestHTTPServer(responder: shop.respond)
            defer { server.stop() }

            // When
            let offline = try await demo.run(["orders", "--offline"])
            let online = try await demo.run(["orders", "--api", server.baseURL.absoluteString])
            let afterwards = try await demo.run(["orders", "--offline"])

            // Then
            #expect(offline.status == 0 && !offline.output.contains("synced"))
            #expect(offline.output.contains(TerminalOrdersView.sampleNotice))
            #expect(
                online.output.contains("synced") && !online.output.contains(TerminalOrdersView.sampleNotice))
            #expect(afterwards.output.contains("synced") && !afterwards.output.contains("sample"))
        }
    }
#endif
