import Foundation

/// The API took a change and answered with JSON this device cannot complete it from: a create
/// answered `2xx` without a usable identifier (none, `null`, a number). Not a portal's page (that
/// keeps the change waiting, uncounted) but the API's fault: counted as a failure, retried on the
/// backoff, and held as stuck past the retry bound, with the API's body in the reason, never
/// resent forever.
struct UnusableAnswer: Error, Equatable {
    /// What was wrong with the answer, and its start.
    let reason: String

    /// `answer` to a create of `type` had no usable identifier.
    init(createOf type: String, answer: Data) {
        let shown = String(decoding: answer.prefix(200), as: UTF8.self)
        reason = "The API answered the create without a usable \(type) id: \(shown)"
    }
}
