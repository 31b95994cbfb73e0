import Foundation
import Services

/// What an answer, or a failure, means for the entry that was sent: the outbox's reading of
/// `FailureClass`.
extension OutboxReplay {
    /// What the API's answer (or failure) means for an entry.
    enum Outcome: Equatable {
        /// Accepted: remove the entry and apply the answer.
        case delivered(Data)
        /// Refused for good: keep it, marked with the reason, and go on.
        case refused(String)
        /// Offline, or asked to come back with no time given: keep it and the rest, and stop.
        case stop(ServiceRequestError)
        /// Asked to come back after `seconds` (`Retry-After`): keep that time with it, and stop.
        case later(ServiceRequestError, status: Int, seconds: Double)
        /// Failed in a way that is not "offline" (a 5xx, an unknown failure): count it; stop, or,
        /// past the bound, hold it as stuck and go on with the other resources.
        case failed(ServiceRequestError)
        /// Another writer changed the resource (412 to its `If-Match`, with the API's copy when it
        /// sent one) or deleted it (404 or 410 to a conditional PUT): merge, or hold as a conflict.
        case conflict(theirs: Data?, deletedOnServer: Bool)
    }

    /// What `FailureClass` says for the entry: refused for a 4xx (but a 404 or 410 to a DELETE,
    /// which means it is done, and a 412, or a 404 or 410 to a conditional PUT, which is another
    /// writer's change); a `Retry-After` says when to come back; offline, cancelled, or "later"
    /// without a time stop (a `Retry-After` of no time counts as a failure); so does a `401` (no
    /// sign-in: nothing is refused or counted); an answer that is not
    /// the API's stops without counting; server trouble and anything else count as a failure of
    /// the entry.
    static func outcome(of error: any Error, for entry: OutboxEntry) -> Outcome {
        if let tooLarge = error as? APIClient.ConflictTooLarge {
            return .refused(
                "HTTP 412: changed by someone else, and the API's copy (at least \(tooLarge.bytes) bytes) is larger than the \(APIClient.maximumConflictBytes) bytes a conflict keeps"
            )
        }
        let failure = FailureClass(error)
        let apiError = (error as? APIClient.RetryLater)?.error ?? error as? APIError
        let reason = ServiceRequestError(apiError ?? error)
        switch failure.kind {
        case .refused:
            if failure.isGone, entry.method == .delete {
                return .delivered(Data())
            }
            if let theirs = FailureClass.conflictCopy(of: error) {
                return .conflict(theirs: theirs, deletedOnServer: false)
            }
            if failure.isGone, entry.method == .put, entry.baseVersion != nil {
                return .conflict(theirs: nil, deletedOnServer: true)
            }
            guard case .httpStatus(let status, let body)? = apiError else { return .failed(reason) }
            return .refused(refusalReason(status: status, body: body))
        case .later:
            guard failure.retryAfter != nil, let status = failure.status else { return .stop(reason) }
            // A wait of nothing (`Retry-After: 0`, a negative one, a date past) counts as a
            // failure, which waits the backoff and, repeated, makes the change stuck.
            guard let seconds = failure.waitAsked else { return .failed(reason) }
            return .later(reason, status: status, seconds: seconds)
        case .offline where failure.answerMayBeLost:
            // It left and no answer came: not "offline", and checked at the next sync.
            return .stop(.answerLost)
        case .offline, .cancelled, .signedOut:
            // Signed out: the change waits, untouched and uncounted, for the next sign-in.
            return .stop(reason)
        case .serverTrouble, .other:
            return .failed(reason)
        }
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
