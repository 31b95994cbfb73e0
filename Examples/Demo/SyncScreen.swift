import Foundation
import Orders
import Promises
import Services

/// `orders sync`, `orders retry ID` and `orders discard ID`: the changes saved on this device
/// that wait for the shop.
@MainActor
enum SyncScreen {
    /// What an offline create, update or delete says.
    static let savedHere = "Saved on this device; it will be sent when the shop can be reached."

    static func sync(_ store: FallbackOrdersStore, _ arguments: Arguments, _ terminal: Terminal) async
        -> Int32
    {
        if arguments.offline {
            return await report(nil, store, terminal)
        }
        do {
            return await report(try await store.sync().value, store, terminal)
        } catch {
            terminal.printError("demo: \(Screens.message(for: error))")
            return 1
        }
    }

    static func retry(
        _ id: String, _ store: FallbackOrdersStore, _ arguments: Arguments, _ terminal: Terminal
    ) async -> Int32 {
        do {
            let report = try await store.retry(id: id).value
            return await Self.report(arguments.offline ? nil : report, store, terminal)
        } catch {
            terminal.printError("demo: order \(id) has no change the shop refused")
            return 1
        }
    }

    static func discard(_ id: String, _ store: FallbackOrdersStore, _ terminal: Terminal) async -> Int32 {
        do {
            let dropped = try await store.discard(id: id).value
            terminal.print(
                "Discarded \(dropped.count == 1 ? "1 change" : "\(dropped.count) changes") to order \(id): "
                    + dropped.map(describe).joined(separator: ", "))
            return 0
        } catch {
            terminal.printError("demo: order \(id) has no change the shop refused")
            return 1
        }
    }

    /// Prints what a sync did (`nil`: none ran) and what waits; 1 when the shop refused a change.
    private static func report(
        _ report: OutboxSyncReport?, _ store: FallbackOrdersStore, _ terminal: Terminal
    )
        async -> Int32
    {
        if let report {
            for entry in report.sent {
                let newID = report.newIDs[entry.localID].map { ", now \($0)" } ?? ""
                terminal.print("Sent: \(describe(entry))\(newID)")
            }
            for entry in report.refused {
                guard case .refused(let reason) = entry.state else { continue }
                terminal.print("Refused: \(describe(entry)): \(reason)", style: .yellow)
            }
            if let reason = report.stoppedBecause {
                terminal.print("Stopped: \(reason.userMessage)", style: .yellow)
            }
        } else {
            terminal.print("Offline: nothing was sent.", style: .yellow)
        }
        guard let status = try? await store.syncStatus().value else {
            terminal.printError("demo: the changes saved on this device cannot be read")
            return 1
        }
        terminal.print(
            status.waiting == 0 && status.refused == 0
                ? "Nothing waits: the shop has every change."
                : "Waiting: \(status.waiting); refused: \(status.refused).")
        return status.refused == 0 ? 0 : 1
    }

    private static func describe(_ entry: OutboxEntry) -> String {
        switch entry.method {
        case .post: "create order \(entry.localID)"
        case .put: "update order \(entry.localID)"
        case .delete: "delete order \(entry.localID)"
        case .get: "read order \(entry.localID)"
        }
    }
}
