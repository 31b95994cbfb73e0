public import Foundation
import Services

/// Whether what a screen shows of one resource has reached the API.
///
/// More states may be added: a `switch` over it needs a `default` (or `@unknown default`).
public enum SyncState: Sendable, Equatable {
    /// The API has it as shown.
    case synced
    /// Changed on this device; the change waits to be sent.
    case pending
    /// Changed on this device, and the API refused the change; `reason` is what it said.
    case refused(reason: String)
    /// Changed on this device, and the API failed the change too often; `lastError` is what the
    /// last attempt got. It waits for the user to retry or discard it.
    case stuck(lastError: String)
    /// Changed on this device and by another writer: `theirs` is the API's copy (`nil` when the
    /// API deleted it, `deletedOnServer`, or did not send it). It waits for the user to keep one
    /// side or discard the change.
    case conflicted(theirs: Data?, deletedOnServer: Bool)
    /// A change of it kept on this device cannot be read (its row is damaged); `reason` names the
    /// file and the entry. It can only be discarded.
    case damaged(reason: String)
}
