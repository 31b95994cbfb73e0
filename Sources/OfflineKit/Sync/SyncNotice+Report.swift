import Foundation
import Services

/// What a sync did, in words: a summary line, and a line for each change that did not simply go.
extension SyncNotice {
    /// What `report` did in one sentence: "Sent 3 changes; 1 refused; 2 waiting.", with why the
    /// sync stopped when it did; "Nothing to send." when it met no change.
    ///
    /// - Parameter report: A sync's report.
    /// - Returns: The sentence.
    public func summary(_ report: OutboxSyncReport) -> String {
        let counts = [
            (report.sent.count, "sent"), (report.merged.count, "merged with \(server)'s changes"),
            (report.refused.count, "refused"), (report.stuck.count, "failed too often"),
            (report.conflicted.count, "in conflict"), (report.waiting, "waiting"),
        ]
        .filter { $0.0 > 0 }
        .map { "\($0.0) \($0.1)" }
        var sentence =
            counts.isEmpty ? "Nothing to send." : "Changes: " + counts.joined(separator: "; ") + "."
        if let reason = report.stoppedBecause { sentence += " Stopped: " + reason.userMessage }
        if report.sendingElsewhere { sentence += " Another sync of this data is sending the rest." }
        return sentence
    }

    /// One line for each change of `report` that the user may want to see: created (with the
    /// identifier the API gave it), refused (with the reason), failed too often, in conflict,
    /// merged. A change sent as it was, under its own identifier, has none.
    ///
    /// - Parameter report: A sync's report.
    /// - Returns: The lines, in the order the changes were queued within each kind.
    public func details(_ report: OutboxSyncReport) -> [String] {
        var lines: [String] = []
        for entry in report.sent {
            guard let newID = report.newIDs[entry.localID] else { continue }
            lines.append("\(entry.localID) is \(newID) at \(server) now.")
        }
        for entry in report.refused {
            guard case .refused(let reason) = entry.state else { continue }
            lines.append("\(entry.localID): refused by \(server): \(reason)")
        }
        for entry in report.stuck {
            lines.append("\(entry.localID): failed by \(server) too often: retry or discard it.")
        }
        for entry in report.conflicted {
            lines.append("\(entry.localID): changed in \(server) meanwhile: keep yours or theirs.")
        }
        for entry in report.merged {
            lines.append("\(entry.localID): merged with \(server)'s changes to other fields.")
        }
        return lines
    }
}
