import Foundation
import OfflineKit
import Orders
import Promises
import Services

/// `orders sync`, `orders retry ID` and `orders discard ID`: the changes saved on this device
/// that wait for the shop.
@MainActor
enum SyncScreen {
    static func sync(
        _ store: FallbackOrdersStore, all: Bool = false, _ arguments: Arguments, _ terminal: Terminal
    ) async -> Int32 {
        if arguments.offline {
            return await report(nil, store, all: all, terminal)
        }
        let progress = await UploadProgress.show(store.attachments, terminal)
        do {
            let report = try await (all ? store.syncAll() : store.sync()).value
            progress?.end()
            return await Self.report(report, store, all: all, terminal)
        } catch {
            progress?.end()
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
            terminal.printError("demo: order \(id) has no change the shop refused or failed too often")
            return 1
        }
    }

    static func resolve(
        _ id: String, _ keeping: Outbox.Keeping, _ store: FallbackOrdersStore, _ arguments: Arguments,
        _ terminal: Terminal
    ) async -> Int32 {
        do {
            let report = try await store.resolve(id: id, keeping: keeping).value
            terminal.print(
                "Kept \(keeping == .mine ? "this device's change" : "the shop's copy") of order \(id).")
            return await Self.report(arguments.offline ? nil : report, store, terminal)
        } catch {
            terminal.printError("demo: order \(id) has no change in conflict with the shop's copy")
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
            terminal.printError(
                "demo: order \(id) has no change that was refused, failed too often or damaged")
            return 1
        }
    }

    /// Prints what a sync did (`nil`: none ran) and what waits; 1 when anything still waits (the
    /// sync stopped, or ran offline) or waits for the user (refused, stuck, damaged): a script can
    /// tell "all sent" by the exit code alone.
    private static func report(
        _ report: OutboxSyncReport?, _ store: FallbackOrdersStore, all: Bool = false, _ terminal: Terminal
    ) async -> Int32 {
        if let report {
            for entry in report.sent {
                let newID = report.newIDs[entry.localID].map { ", now \($0)" } ?? ""
                terminal.print("Sent: \(describe(entry))\(newID)")
            }
            for entry in report.refused {
                guard case .refused(let reason) = entry.state else { continue }
                terminal.print("Refused: \(describe(entry)): \(reason)", style: .yellow)
            }
            for entry in report.merged {
                terminal.print("Merged: \(describe(entry)) with the shop's changes to other fields")
            }
            for entry in report.conflicted {
                terminal.print(
                    "Conflict: \(describe(entry)): changed in the shop meanwhile; see 'orders show \(entry.localID)'",
                    style: .yellow)
            }
            for entry in report.stuck {
                terminal.print(
                    "Stuck: \(describe(entry)): failed too often; retry or discard it.", style: .yellow)
            }
            if let reason = report.stoppedBecause {
                let next = report.retryAt.map { " Next attempt after \(Self.when($0, now: Date()))." } ?? ""
                terminal.print("Stopped: \(reason.userMessage)\(next)", style: .yellow)
            }
            if report.sendingElsewhere {
                terminal.print(
                    "Another sync of this database (another process) is sending these changes; they go with it.",
                    style: .yellow)
            }
        } else {
            terminal.print("Offline: nothing was sent.", style: .yellow)
        }
        guard let status = try? await store.syncStatus().value else {
            terminal.printError("demo: the changes saved on this device cannot be read")
            return 1
        }
        terminal.print(OrdersSyncWording.list(status) ?? OrdersSyncWording.nothingWaits)
        guard all else { return status.waiting == 0 && status.held == 0 ? 0 : 1 }
        // `demo sync`: the customers' changes count as well.
        guard let customers = try? await store.customers.syncStatus().value else {
            terminal.printError("demo: the changes saved on this device cannot be read")
            return 1
        }
        if let waiting = OrdersSyncWording.list(customers) { terminal.print("Customers: \(waiting)") }
        for line in await CustomersScreen.held(store) { terminal.print(line, style: .yellow) }
        return status.waiting + status.held + customers.waiting + customers.held == 0 ? 0 : 1
    }

    /// When a stopped sync may try again, as the user reads it: the time of day when it is today,
    /// with the date when it is not ("Next attempt after 12:07:54 PM" for tomorrow would mislead).
    nonisolated static func when(_ date: Date, now: Date, calendar: Calendar = .current) -> String {
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = calendar.locale ?? .current
        formatter.dateStyle = calendar.isDate(date, inSameDayAs: now) ? .none : .medium
        formatter.timeStyle = .medium
        return formatter.string(from: date)
    }

    private static func describe(_ entry: OutboxEntry) -> String {
        let noun =
            entry.path.hasPrefix("customers")
            ? "customer" : entry.path.hasPrefix("uploads") ? "file" : "order"
        switch entry.method {
        case .post where noun == "file": return "upload file \(entry.localID)"
        case .post: return "create \(noun) \(entry.localID)"
        case .put: return "update \(noun) \(entry.localID)"
        case .delete: return "delete \(noun) \(entry.localID)"
        default: return "\(entry.method.rawValue) \(noun) \(entry.localID)"
        }
    }
}
