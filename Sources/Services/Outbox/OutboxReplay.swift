import Foundation
import Promises

/// One run of ``Outbox/sync(with:delivered:)``: the waiting entries sent one by one, in order.
struct OutboxReplay: Sendable {
    let feature: String
    let database: Database
    let client: APIClient
    let delivered: Outbox.Delivery

    /// What the API's answer (or failure) means for an entry.
    enum Outcome {
        /// Accepted: remove the entry and apply the answer.
        case delivered(Data)
        /// Refused for good: keep it, marked with the reason, and go on.
        case refused(String)
        /// Not now: keep it and the rest, and stop.
        case stop(ServiceRequestError)
    }

    func run() async throws -> OutboxSyncReport {
        var report = OutboxSyncReport()
        var last: Int64 = 0
        let feature = feature
        replay: while let entry = try await next(after: last) {
            last = entry.sequence
            let outcome: Outcome
            do {
                let answer = try await client.send(
                    entry.method, entry.path, body: entry.body,
                    headers: ["Idempotency-Key": entry.idempotencyKey]
                ).value
                outcome = .delivered(answer)
            } catch {
                outcome = Self.outcome(of: error, for: entry)
            }
            switch outcome {
            case .delivered(let answer):
                do {
                    let delivered = delivered
                    let completion = try await database.write {
                        try OutboxTable.complete(entry, answer: answer, feature: feature, $0, delivered)
                    }.value
                    if case .done(let newID) = completion {
                        report.sent.append(entry)
                        report.newIDs[entry.localID] = newID
                    }
                } catch let error as DatabaseError {
                    report.stoppedBecause = ServiceRequestError(error)
                    break replay
                } catch {
                    // The API took the change but its answer cannot be used: show it refused, so
                    // the user sees it; a retry sends the same key, and the API answers the same.
                    let reason =
                        "The shop's answer could not be used: \(ServiceRequestError(error).userMessage)"
                    report.refused.append(try await refuse(entry, reason))
                }
            case .refused(let reason):
                report.refused.append(try await refuse(entry, reason))
            case .stop(let reason):
                report.stoppedBecause = reason
                break replay
            }
        }
        report.waiting = try await database.read { try OutboxTable.waiting(feature, $0) }.value
        return report
    }

    private func next(after sequence: Int64) async throws -> OutboxEntry? {
        let feature = feature
        return try await database.read { try OutboxTable.next(feature, after: sequence, $0) }.value
    }

    private func refuse(_ entry: OutboxEntry, _ reason: String) async throws -> OutboxEntry {
        try await database.write { try OutboxTable.refuse(entry, reason: reason, $0) }.value
        return OutboxEntry(
            sequence: entry.sequence, localID: entry.localID, method: entry.method, path: entry.path,
            body: entry.body, idempotencyKey: entry.idempotencyKey, state: .refused(reason: reason),
            createdAt: entry.createdAt)
    }

    /// A 4xx refuses the entry, but for the statuses that mean "later" (408, 425, 429) and a 404 to
    /// a DELETE, which means it is done; anything else (no network, a timeout, a 5xx) stops.
    static func outcome(of error: any Error, for entry: OutboxEntry) -> Outcome {
        if case .httpStatus(let status, let body) = error as? APIError {
            if status == 404 && entry.method == .delete { return .delivered(Data()) }
            if (400..<500).contains(status) && ![408, 425, 429].contains(status) {
                return .refused(refusalReason(status: status, body: body))
            }
        }
        return .stop(ServiceRequestError(error))
    }

    /// "HTTP 409: what the API said", from `{"error": ...}`, `{"message": ...}` or
    /// `{"errors": [{"message": ...}]}`, else the start of the body.
    static func refusalReason(status: Int, body: String) -> String {
        struct Said: Decodable {
            struct Item: Decodable { let message: String? }
            let error: String?
            let message: String?
            let errors: [Item]?
        }
        let said = try? JSONDecoder().decode(Said.self, from: Data(body.utf8))
        let text =
            said?.error ?? said?.message
            ?? said?.errors?.compactMap(\.message).joined(separator: " ")
            ?? String(body.prefix(200))
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "HTTP \(status)" : "HTTP \(status): \(trimmed)"
    }
}
