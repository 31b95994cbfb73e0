public import Foundation

/// One line of a ``WakeLog``: what happened to a background task, and when.
public struct WakeLogEntry: Sendable, Equatable, Codable {
    /// What happened.
    public enum Event: String, Sendable, Equatable, Codable, CaseIterable {
        /// A wake was asked for (`detail`: its earliest time, ISO 8601).
        case asked
        /// The system refused to take the request (`detail`: what it said).
        case refused
        /// The system woke the app for the task.
        case woken
        /// The work ended (`changes`: how many changes it sent).
        case finished
        /// The system ended the wake first; the work was cancelled, nothing lost.
        case expired
        /// The work failed (`detail`: why, as the user reads it).
        case failed
    }

    /// The task's identifier.
    public let task: String
    /// What happened.
    public let event: Event
    /// When.
    public let at: Date
    /// With ``Event/finished``: how many changes were sent.
    public let changes: Int?
    /// A word more, such as the earliest time asked for or why it failed.
    public let detail: String?

    /// Makes an entry.
    ///
    /// - Parameters:
    ///   - task: The task's identifier.
    ///   - event: What happened.
    ///   - at: When.
    ///   - changes: How many changes were sent; `nil` but for ``Event/finished``.
    ///   - detail: A word more.
    public init(task: String, event: Event, at: Date, changes: Int? = nil, detail: String? = nil) {
        self.task = task
        self.event = event
        self.at = at
        self.changes = changes
        self.detail = detail
    }
}
