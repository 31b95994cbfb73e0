import Foundation
import OfflineKit
import OrdersTesting
import Testing

#if SUBPROCESSES
    @testable import Demo
#endif

// Runs the demo as a subprocess: compiled where tests can start one (Package.swift, `subprocesses`).
#if SUBPROCESSES

    /// Files attached to orders as a user meets them: `orders attach` offline, the original then
    /// deleted, `demo sync` uploading the file (tus) before the order that names it.
    @Suite("demo: attachments")
    struct AttachmentsDemoTests {
        /// The shop's orders and its uploads behind one loopback server: an order naming an upload
        /// it does not hold whole is refused (`400`).
        final class Shop: Sendable {
            let uploads = TestUploadAPI()
            let orders: TestOrdersShop
            let server: TestHTTPServer

            init() throws {
                let uploads = uploads
                let orders = TestOrdersShop(orders: Order.samples)
                self.orders = orders
                server = try TestHTTPServer { request in
                    if let reply = uploads.respond(request) { return reply }
                    let complete = Set(uploads.uploads.filter { $0.sha256 != nil }.map(\.id))
                    if request.method == "POST",
                        let order = try? APIClient.decode(Order.self, from: request.body),
                        !order.attachments.allSatisfy({ complete.contains($0.id) })
                    {
                        return .status(400, body: #"{"error": "no such upload"}"#)
                    }
                    return orders.respond(request)
                }
            }

            var api: [String] { ["--api", server.baseURL.absoluteString] }
        }

        /// A receipt of 12,345 bytes in the user's own folder.
        static func receipt(in folder: TemporaryFolder) throws -> (URL, Data) {
            try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
            let url = folder.file("receipt.pdf")
            let bytes = Data((0..<12_345).map { UInt8(truncatingIfNeeded: $0 &* 13) })
            try bytes.write(to: url)
            return (url, bytes)
        }

        @Test(
            "a file attached offline is kept, and sync uploads it before the order, which then names the upload"
        )
        func attachOfflineThenSync() async throws {
            // Given: an order made offline, a receipt attached offline, the original then deleted
            let demo = DemoRunner()
            let shop = try Shop()
            defer { shop.server.stop() }
            let created = try await demo.run(OfflineWritesDemoTests.createArguments + ["--offline"])
            let id =
                created.output.split(separator: "\n").first?.split(separator: " ").last.map(String.init) ?? ""
            let user = TemporaryFolder("AttachmentsDemoTests")
            let (receipt, bytes) = try Self.receipt(in: user)
            // When
            let attached = try await demo.run(["orders", "attach", id, receipt.path, "--offline"])
            try FileManager.default.removeItem(at: receipt)
            let before = try await demo.run(["orders", "show", id, "--offline"])
            let synced = try await demo.run(["sync"] + shop.api)
            let after = try await demo.run(["orders", "show", id, "--offline"])
            // Then
            #expect(attached.status == 0)
            #expect(
                attached.output
                    == "Attached receipt.pdf (12 KB) to order \(id); it will be uploaded when the shop can be reached.\n"
            )
            #expect(before.output.contains("File      receipt.pdf (12 KB): waiting to be uploaded"))
            #expect(synced.status == 0, "\(synced.output)\(synced.error)")
            #expect(synced.output.contains("Sent: upload file"))
            // piped: no progress line, nothing that moves the cursor
            #expect(!synced.error.contains("Uploading") && !synced.error.contains("\r"))
            let upload = try #require(shop.uploads.uploads.first)
            #expect(shop.uploads.uploads.count == 1 && upload.bytes == bytes)
            let stored = shop.orders.storedOrders.filter { !$0.attachments.isEmpty }
            #expect(stored.map { $0.attachments.map(\.id) } == [[upload.id]])
            #expect(after.output.contains("File      receipt.pdf (12 KB): uploaded"))
        }

        @Test(
            "another device writes an order's file, fetched once from the shop; offline it says it is not here"
        )
        func fileOnAnotherDevice() async throws {
            // Given: a receipt attached and synced by one device
            let phone = DemoRunner()
            let shop = try Shop()
            defer { shop.server.stop() }
            let created = try await phone.run(OfflineWritesDemoTests.createArguments + ["--offline"])
            let id =
                created.output.split(separator: "\n").first?.split(separator: " ").last.map(String.init) ?? ""
            let user = TemporaryFolder("AttachmentsDemoTests")
            let (receipt, bytes) = try Self.receipt(in: user)
            _ = try await phone.run(["orders", "attach", id, receipt.path, "--offline"])
            _ = try await phone.run(["sync"] + shop.api)
            let shopID = try #require(shop.orders.storedOrders.first { !$0.attachments.isEmpty }?.id)
            // When: a laptop asks for it, offline first, then online
            let laptop = DemoRunner()
            _ = try await laptop.run(["orders"] + shop.api)
            let target = user.file("copy.pdf")
            let offline = try await laptop.run(
                ["orders", "attachment", shopID, "receipt.pdf", "--to", target.path, "--offline"])
            let online = try await laptop.run(
                ["orders", "attachment", shopID, "receipt.pdf", "--to", target.path] + shop.api)
            // Then
            #expect(offline.status == 1)
            #expect(
                offline.error
                    == "demo: receipt.pdf is not on this device yet, and the shop cannot be reached\n")
            #expect(online.status == 0, "\(online.error)")
            #expect(online.output == "Wrote receipt.pdf (12 KB) to \(target.path).\n")
            #expect(try Data(contentsOf: target) == bytes)
        }

        @Test("a file that cannot be read is a clear error, and nothing is attached")
        func missingFile() async throws {
            // Given
            let demo = DemoRunner()
            let created = try await demo.run(OfflineWritesDemoTests.createArguments + ["--offline"])
            let id =
                created.output.split(separator: "\n").first?.split(separator: " ").last.map(String.init) ?? ""
            // When
            let attached = try await demo.run([
                "orders", "attach", id, "/nonexistent/receipt.pdf", "--offline",
            ])
            let missingFile = try await demo.run(["orders", "attach", id, "--offline"])
            let shown = try await demo.run(["orders", "show", id, "--offline"])
            // Then
            #expect(attached.status == 1)
            #expect(
                attached.error
                    == "demo: could not attach /nonexistent/receipt.pdf: No such file or directory\n")
            #expect(missingFile.status == 2)
            #expect(missingFile.error.contains("say which order and file: demo orders attach ID FILE"))
            #expect(!shown.output.contains("File "))
        }

        @Test("the progress line names the file under way, and all of them when there are several")
        func progressLine() {
            let receipt = OfflineAttachment(
                id: "a", name: "receipt.pdf", contentType: "application/pdf", size: 20_000_000, sha256: "")
            let photo = OfflineAttachment(
                id: "b", name: "photo.jpg", contentType: "image/jpeg", size: 8_000_000, sha256: "")
            #expect(
                UploadProgress.line([receipt], [.uploading(sent: 3_200_000, of: 20_000_000)])
                    == "Uploading receipt.pdf: 3.2 MB of 20.0 MB")
            #expect(
                UploadProgress.line(
                    [receipt, photo], [.uploaded, .uploading(sent: 1_000_000, of: 8_000_000)])
                    == "Uploading photo.jpg: 1.0 MB of 8.0 MB (2 files: 21.0 MB of 28.0 MB)")
            #expect(
                UploadProgress.line([receipt, photo], [.waiting, .held(reason: "413")])
                    == "Uploading 2 files: 0 bytes of 28.0 MB")
            #expect(UploadProgress.line([receipt, photo], [.uploaded, .uploaded]) == nil)
        }
    }

#endif
