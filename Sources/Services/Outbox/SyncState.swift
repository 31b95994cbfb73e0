/// Whether what a screen shows of one resource has reached the API.
public enum SyncState: Sendable, Equatable {
    /// The API has it as shown.
    case synced
    /// Changed on this device; the change waits to be sent.
    case pending
    /// Changed on this device, and the API refused the change; `reason` is what it said.
    case refused(reason: String)
}
