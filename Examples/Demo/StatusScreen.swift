import Foundation
import OfflineKit
import Orders
import Promises

/// `demo status [--json]`: what waits to be sent, per collection, and why, read through the kit's
/// diagnostics (no SQL on its tables); `--json` for a support bundle.
@MainActor
enum StatusScreen {
    /// The `--json` bundle: each collection's outbox, and what the shop's copy takes here.
    struct Bundle: Codable {
        let collections: [OutboxDiagnostics]
        /// Bytes against the budget; a budget of `nil` when none was given.
        let storage: Storage
    }

    /// What the copy takes, what must stay, and the budget.
    struct Storage: Codable {
        let bytes: Int
        let keptBytes: Int
        /// Of `bytes`, the orders' files kept here.
        let fileBytes: Int
        let budget: Int?
    }

    static func show(_ store: FallbackOrdersStore, json: Bool, budget: Int?, _ terminal: Terminal) async
        -> Int32
    {
        let snapshots: [OutboxDiagnostics]
        let usage: StorageUsage
        do {
            snapshots = try await store.diagnostics().value
            usage = try await store.storageBudget(bytes: budget ?? Int.max).usage().value
        } catch {
            terminal.printError("demo: \(Screens.message(for: error))")
            return 1
        }
        let storage = Storage(
            bytes: usage.bytes, keptBytes: usage.keptBytes, fileBytes: usage.fileBytes, budget: budget)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.dateEncodingStrategy = .iso8601
            let bundle = Bundle(collections: snapshots, storage: storage)
            let text = (try? encoder.encode(bundle)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            terminal.printLines(redacted(text))
            return 0
        }
        terminal.print(summary(storage), style: .bold)
        for snapshot in snapshots {
            terminal.print(summary(snapshot), style: .bold)
            guard !snapshot.changes.isEmpty else { continue }
            let table = Table(
                headers: ["#", "Kind", "ID", "Shop ID", "State", "Failures", "Reason"],
                rows: snapshot.changes,
                cells: { change in
                    [
                        String(change.sequence), change.kind, change.localID, change.apiID ?? "",
                        change.state,
                        String(change.failures),
                        redacted(
                            Terminal.escaped(
                                change.reason ?? change.waitingFor.map { "waits for \($0)" }
                                    ?? change.handedOff.map { _ in "with the transfer service" } ?? "")),
                    ]
                }, fixed: [0, 1, 2, 3, 4, 5])
            for (index, line) in table.lines(fitting: terminal.width).enumerated() {
                terminal.print(line, style: index == 0 ? .dim : .plain)
            }
        }
        return 0
    }

    /// "storage: 1.2 MB of the shop kept here (300.0 kB in files), 8.4 kB of it waiting or pinned;
    /// budget 2.0 MB".
    nonisolated static func summary(_ storage: Storage) -> String {
        let budget = storage.budget.map { "budget \(StorageUsage.text($0))" } ?? "no budget"
        let files = storage.fileBytes > 0 ? " (\(StorageUsage.text(storage.fileBytes)) in files)" : ""
        return "storage: \(StorageUsage.text(storage.bytes)) of the shop kept here\(files), "
            + "\(StorageUsage.text(storage.keptBytes)) of it waiting or pinned; \(budget)"
    }

    /// "orders: 3 changes waiting, 2 shop IDs kept, kept for amy, model 2, sending: process 41 on
    /// host".
    nonisolated static func summary(_ snapshot: OutboxDiagnostics) -> String {
        var parts = [
            Screens.counted(snapshot.changes.count, "change") + " waiting"
                + (snapshot.changes.isEmpty ? "" : " (\(StorageUsage.text(snapshot.outboxBytes)))"),
            Screens.counted(snapshot.identifiers, "shop ID") + " kept",
        ]
        if let owner = snapshot.owner { parts.append("kept for \(Terminal.escaped(owner))") }
        parts.append("model \(snapshot.modelVersion)")
        if let claim = snapshot.claim {
            parts.append("sending: process \(claim.pid) on \(Terminal.escaped(claim.host))")
        }
        if let copy = snapshot.copy { parts.append(summary(copy)) }
        if let files = snapshot.files {
            parts.append(
                "\(Screens.counted(files.count, "file")) kept (\(StorageUsage.text(files.bytes)), "
                    + "\(StorageUsage.text(files.waitingBytes)) not uploaded)")
        }
        return "\(snapshot.feature): " + parts.joined(separator: ", ")
    }

    /// "copy of 120 rows (48.2 kB), refreshed 2026-11-29T12:03:00Z: 2 listings, 1 not modified, 3
    /// feed updates".
    nonisolated static func summary(_ copy: OutboxDiagnostics.Copy) -> String {
        let refreshed =
            copy.refreshedAt.map { "refreshed \(ISO8601DateFormatter().string(from: $0))" }
            ?? "never refreshed"
        return
            "copy of \(Screens.counted(copy.rows, "row")) (\(StorageUsage.text(copy.bytes))), \(refreshed): "
            + "\(Screens.counted(copy.listings, "listing")), \(copy.notModified) not modified, "
            + Screens.counted(copy.feedUpdates, "feed update")
    }

    /// `text` with every run of 13 to 19 digits (spaces and dashes between them allowed) masked:
    /// a card number an API quoted in its reason never leaves the device in a support bundle.
    nonisolated static func redacted(_ text: String) -> String {
        var result = ""
        var run = ""  // digits and the separators between them
        var separators = ""  // separators after the last digit, not yet known to be inside a run
        var digits = 0
        func flush() {
            result += (13...19).contains(digits) ? "[card number removed]" : run
            result += separators
            (run, separators, digits) = ("", "", 0)
        }
        for character in text {
            if character.isASCII, character.isNumber {
                run += separators
                separators = ""
                run.append(character)
                digits += 1
            } else if character == " " || character == "-", digits > 0 {
                separators.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }
}
