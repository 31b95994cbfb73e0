import Services

/// The sentences that tell the user which of their changes the API has, for any feature: beside
/// `SourceNotice` (which says where the data came from), what a list or a row says about the
/// changes made on this device.
///
/// ```swift
/// let sync = SyncNotice(server: "the shop")
/// view.showSyncNotice(sync.list(snapshot.status))          // "2 changes waiting to be sent."
/// row.detail = sync.change(item.state)                      // nil once the shop has it
/// ```
public struct SyncNotice: Sendable {
    /// Who receives the changes, as a sentence names it in its middle: "the API", "the shop".
    public let server: String

    /// Makes the wording.
    ///
    /// - Parameter server: Who receives the changes; "the API" by default.
    public init(server: String = "the API") {
        self.server = server
    }

    /// What one change's state means, or `nil` when the API has it.
    ///
    /// - Parameter state: The change's state.
    /// - Returns: The sentence, or `nil`.
    public func change(_ state: SyncState) -> String? {
        switch state {
        case .synced: nil
        case .pending: "Saved on this device; it will be sent when \(server) can be reached."
        case .refused(let reason): "Saved on this device, but \(server) refused it: \(reason)"
        case .stuck(let lastError):
            "Saved on this device, but \(server) failed it too often: \(lastError) Retry or discard it."
        case .damaged(let reason): "This change cannot be read and will not be sent: \(reason). Discard it."
        case .conflicted(_, deletedOnServer: true):
            "Changed on this device, but deleted in \(server) meanwhile: keep yours (it is created again) or theirs."
        case .conflicted:
            "Changed on this device and in \(server) meanwhile, in the same fields: keep yours or theirs."
        }
    }

    /// The outbox in one line: how many changes wait, and how many wait for the user and why; `nil`
    /// when nothing waits.
    ///
    /// - Parameter status: The outbox's status.
    /// - Returns: The sentence, or `nil`.
    public func list(_ status: OutboxStatus) -> String? {
        let parts = [
            (status.waiting, "waiting to be sent."),
            (status.refused, "refused by \(server): retry or discard."),
            (status.stuck, "failed by \(server) too often: retry or discard."),
            (status.conflicted, "in conflict with \(server)'s copy: keep yours or theirs."),
            (status.damaged, "cannot be read: discard."),
        ]
        .filter { $0.0 > 0 }
        .map { "\($0.0 == 1 ? "1 change" : "\($0.0) changes") \($0.1)" }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// What a screen says while nobody is signed in (``SyncSchedulerState/signedOut``) and changes
    /// wait: "Sign in to send your 3 changes."; `nil` when nothing waits.
    ///
    /// - Parameter status: The outbox's status.
    /// - Returns: The sentence, or `nil`.
    public func signIn(_ status: OutboxStatus) -> String? {
        switch status.waiting {
        case 0: nil
        case 1: "Sign in to send your change to \(server)."
        case let count: "Sign in to send your \(count) changes to \(server)."
        }
    }

    /// What a watching screen says when nothing waits.
    public var nothingWaits: String { "Nothing waits: \(server) has every change." }
}
