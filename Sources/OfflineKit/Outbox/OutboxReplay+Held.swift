import Foundation
import Promises
import Services

/// What a run does with an entry it cannot deliver: a failure counted (the backoff, or stuck), or
/// a refusal kept with the API's reason.
extension OutboxReplay {
    /// Counts a failed attempt: the entry waits for the backoff and the sync stops (the API is
    /// failing); the failure past the bound makes it stuck instead, and the sync goes on. `said`,
    /// when given, is kept as the reason instead of `reason`'s message (the API's body, say).
    func fail(_ entry: OutboxEntry, _ reason: ServiceRequestError, _ run: Run, saying said: String? = nil) {
        let failures = entry.failures + 1
        let stuck = failures > retry.maximumRetries
        let wait = stuck ? nil : retry.delay(beforeRetry: failures - 1)
        let notBefore = wait.map { now().addingTimeInterval($0) }
        let status: Int? = if case .httpStatus(let status) = reason { status } else { nil }
        let message = said ?? reason.userMessage
        let written = database.write {
            try OutboxTable.recordFailure(
                entry, error: message, status: status, notBefore: notBefore, wait: wait, stuck: stuck, $0)
        }
        run.whenSettled(written) { written in
            if case .failure(let error) = written { return run.fail(error) }
            if stuck {
                done(entry, run) { $0.stuck.append(entry) }
            } else {
                done(entry, stopping: true, run) { $0.stop(reason, retryAt: notBefore) }
            }
        }
    }

    /// An error as the user reads it: a `DatabaseError` or ``OutboxError`` says what it is,
    /// anything else through the one mapping.
    static func describe(_ error: any Error) -> String {
        if let error = error as? OutboxError { return error.description }
        return ServiceRequestError(error).userMessage
    }

    func refuse(_ entry: OutboxEntry, _ reason: String, _ run: Run) {
        run.whenSettled(database.write { try OutboxTable.refuse(entry, reason: reason, $0) }) { written in
            guard case .success = written else {
                if case .failure(let error) = written { run.fail(error) }
                return
            }
            done(entry, run) { $0.refused.append(entry.refused(reason)) }
        }
    }
}
