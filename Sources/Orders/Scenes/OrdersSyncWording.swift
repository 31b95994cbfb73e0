public import Services

/// The sentences that tell the user what of their changes the shop has: the list presenter's
/// notices and any other screen (the demo's sync report) say them from here.
public enum OrdersSyncWording {
    /// What one change's state means, or `nil` when the shop has it.
    ///
    /// - Parameter state: The change's state.
    /// - Returns: The sentence, or `nil`.
    public static func change(_ state: SyncState) -> String? {
        switch state {
        case .synced: nil
        case .pending: "Saved on this device; it will be sent when the shop can be reached."
        case .refused(let reason): "Saved on this device, but the shop refused it: \(reason)"
        case .stuck(let lastError):
            "Saved on this device, but the shop failed it too often: \(lastError) Retry or discard it."
        case .damaged(let reason): "This change cannot be read and will not be sent: \(reason). Discard it."
        case .conflicted(_, deletedOnServer: true):
            "Changed on this device, but deleted in the shop meanwhile: keep yours (it is created again) or theirs."
        case .conflicted:
            "Changed on this device and in the shop meanwhile, in the same fields: keep yours or theirs."
        }
    }

    /// How many changes wait and how many were refused, such as "2 changes waiting to be sent.",
    /// or `nil` when none.
    ///
    /// - Parameter status: The outbox's status.
    /// - Returns: The sentence, or `nil`.
    public static func list(_ status: OutboxStatus) -> String? {
        var parts: [String] = []
        if status.waiting > 0 {
            parts.append("\(count(status.waiting)) waiting to be sent.")
        }
        if status.refused > 0 {
            parts.append("\(count(status.refused)) refused by the shop: retry or discard.")
        }
        if status.stuck > 0 {
            parts.append("\(count(status.stuck)) failed by the shop too often: retry or discard.")
        }
        if status.conflicted > 0 {
            parts.append(
                "\(count(status.conflicted)) in conflict with the shop's copy: keep yours or theirs.")
        }
        if status.damaged > 0 {
            parts.append("\(count(status.damaged)) cannot be read: discard.")
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// What a sync report says when nothing waits and nothing was refused.
    public static let nothingWaits = "Nothing waits: the shop has every change."

    private static func count(_ changes: Int) -> String {
        changes == 1 ? "1 change" : "\(changes) changes"
    }
}
