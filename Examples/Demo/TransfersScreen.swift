import Foundation
import OfflineKit
import Orders
import Promises
import Services

/// `sync --hand-off` and `transfers run`: changes handed to a transfer service that outlives the
/// demo, and the stand-in for the system's daemon that sends them.
@MainActor
enum TransfersScreen {
    /// `transfers run`: sends every request waiting in the spool beside the database and writes
    /// each answer beside it, without opening the database (the system's daemon cannot either).
    static func run(_ arguments: Arguments, _ terminal: Terminal) async -> Int32 {
        let spool = arguments.transferSpool
        let waiting = spool.waiting().count
        guard waiting > 0 else {
            terminal.print("Nothing waits in the transfer service.")
            return 0
        }
        let transfers = BackgroundTransfers(spool: spool, identifier: "demo.transfers")
        defer { transfers.finish() }
        do {
            let answered = try await transfers.resume().value
            terminal.print(
                "Sent \(count(waiting, "request")) of the transfer service: \(answered) answered; "
                    + "the next 'sync' or 'orders' records them.")
            return answered == waiting ? 0 : 1
        } catch {
            terminal.printError("demo: the transfer service stopped: \(Screens.message(for: error))")
            return 1
        }
    }

    /// `sync --hand-off` and `orders sync --hand-off`: hands the customers' and orders' changes
    /// that may go now to the transfer service, makes no request, and says what still waits.
    static func handOff(_ store: FallbackOrdersStore, _ terminal: Terminal) async -> Int32 {
        do {
            let report = try await store.handOff().value
            if report.sendingElsewhere {
                terminal.print(
                    "Another sync of this database (another process) is sending these changes; they go with it.",
                    style: .yellow)
            }
            if let reason = report.stoppedBecause {
                terminal.print("Stopped: \(reason.userMessage)", style: .yellow)
            }
            terminal.print(
                "\(count(report.handedOff.count, "change")) handed to the transfer service ('demo transfers run')."
            )
            if report.waiting > report.handedOff.count {
                let left = report.waiting - report.handedOff.count
                terminal.print(
                    (left == 1 ? "1 change still waits" : "\(left) changes still wait")
                        + ": with the transfer service already, or for an answer first (a customer's create, "
                        + "a file's upload, an earlier change of the same order).")
            }
            return 0
        } catch {
            terminal.printError("demo: \(Screens.message(for: error))")
            return 1
        }
    }

    /// "1 change", "12 changes".
    private static func count(_ number: Int, _ noun: String) -> String {
        number == 1 ? "1 \(noun)" : "\(number) \(noun)s"
    }
}
