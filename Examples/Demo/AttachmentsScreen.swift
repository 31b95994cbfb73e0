import Foundation
import OfflineKit
import Orders
import Promises
import Services

/// `orders attach ID FILE`, and the files `orders show ID` lists with where each upload stands.
enum AttachmentsScreen {
    /// Keeps a copy of the file at `path` with order `id`, offline too.
    @MainActor
    static func attach(_ path: String, to id: String, _ store: FallbackOrdersStore, _ terminal: Terminal)
        async
        -> Int32
    {
        let file = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        do {
            let order = try await store.attach(fileAt: file, to: id, contentType: contentType(of: file)).value
            let attached = order.attachments.last
            let size = attached.map { " (\(bytes($0.size)))" } ?? ""
            terminal.print(
                "Attached \(Terminal.escaped(file.lastPathComponent))\(size) to order \(Terminal.escaped(order.id ?? id)); it will be uploaded when the shop can be reached."
            )
            return 0
        } catch let failure as KeptFiles.Failure {
            terminal.printError("demo: could not attach \(Terminal.escaped(file.path)): \(failure.reason)")
            return 1
        } catch {
            terminal.printError("demo: \(Screens.message(for: error))")
            return 1
        }
    }

    /// Writes the file `name` of order `id` to `path`: the copy kept here, or fetched once from the
    /// shop.
    @MainActor
    static func save(
        _ name: String, of id: String, to path: String, _ store: FallbackOrdersStore, _ terminal: Terminal
    ) async -> Int32 {
        let target = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        do {
            let order = try await store.fetchOrder(id: id).value
            guard let attachment = order.attachments.first(where: { $0.name == name }) else {
                terminal.printError(
                    "demo: order \(Terminal.escaped(id)) has no file \(Terminal.escaped(name))")
                return 1
            }
            let kept = try await store.attachments.file(for: attachment).value
            guard !FileManager.default.fileExists(atPath: target.path) else {
                terminal.printError(
                    "demo: \(Terminal.escaped(target.path)) exists already; nothing was written")
                return 1
            }
            try FileManager.default.copyItem(at: kept, to: target)
            terminal.print(
                "Wrote \(Terminal.escaped(name)) (\(bytes(attachment.size))) to \(Terminal.escaped(target.path))."
            )
            return 0
        } catch let error as DownloadError {
            terminal.printError("demo: \(error)")
            return 1
        } catch {
            if FailureClass(error).kind == .offline {
                terminal.printError(
                    "demo: \(Terminal.escaped(name)) is not on this device yet, and the shop cannot be reached"
                )
                return 1
            }
            terminal.printError("demo: \(Screens.message(for: error))")
            return 1
        }
    }

    /// One line per file attached to `order`: its name, size and upload's state.
    @MainActor
    static func show(_ order: Order, _ store: FallbackOrdersStore, _ terminal: Terminal) async {
        guard !order.attachments.isEmpty else { return }
        let states = (try? await store.attachmentStates(of: order).value) ?? []
        for (index, attachment) in order.attachments.enumerated() {
            let state = index < states.count ? describe(states[index]) : "uploaded"
            terminal.print(
                "  \("File".padding(to: 9)) \(Terminal.escaped(attachment.name)) (\(bytes(attachment.size))): \(state)"
            )
        }
    }

    /// Where an upload stands, in words.
    static func describe(_ state: OfflineAttachmentState) -> String {
        switch state {
        case .waiting: "waiting to be uploaded"
        case .uploading(let sent, let size):
            "uploading \(size > 0 ? Int(Double(sent) * 100 / Double(size)) : 0)%"
        case .uploaded, .unknown: "uploaded"
        case .held(let reason): "held: \(Terminal.escaped(reason))"
        }
    }

    /// `48 KB`, `3.2 MB`, `512 bytes`.
    static func bytes(_ count: Int64) -> String {
        switch count {
        case ..<1_000: "\(count) bytes"
        case ..<1_000_000: "\(Int((Double(count) / 1_000).rounded())) KB"
        default: String(format: "%.1f MB", Double(count) / 1_000_000)
        }
    }

    /// The media type of a file, by its extension; `application/octet-stream` for any other.
    static func contentType(of file: URL) -> String {
        let types = [
            "pdf": "application/pdf", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png",
            "heic": "image/heic", "txt": "text/plain", "csv": "text/csv", "json": "application/json",
        ]
        return types[file.pathExtension.lowercased()] ?? "application/octet-stream"
    }
}
