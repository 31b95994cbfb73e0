public import OfflineKit
import Services

/// The sentences that tell the user what of their changes the shop has: the kit's `SyncNotice`
/// with the shop as the API, kept under this name for the screens and the demo that say them.
public enum OrdersSyncWording {
    /// The wording, with the shop named.
    static let notice = SyncNotice(server: "the shop")

    /// What one change's state means, or `nil` when the shop has it.
    ///
    /// - Parameter state: The change's state.
    /// - Returns: The sentence, or `nil`.
    public static func change(_ state: SyncState) -> String? {
        notice.change(state)
    }

    /// How many changes wait and how many were refused, such as "2 changes waiting to be sent.",
    /// or `nil` when none.
    ///
    /// - Parameter status: The outbox's status.
    /// - Returns: The sentence, or `nil`.
    public static func list(_ status: OutboxStatus) -> String? {
        notice.list(status)
    }

    /// What a sync report says when nothing waits and nothing was refused.
    public static let nothingWaits = notice.nothingWaits
}
