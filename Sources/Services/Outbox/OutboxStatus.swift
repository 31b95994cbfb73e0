/// What an ``Outbox`` holds, as a screen shows it: each changed resource's ``SyncState`` and how
/// many changes wait or were refused.
public struct OutboxStatus: Sendable, Equatable {
    /// The state of each resource with a change in the outbox, by local identifier; a resource
    /// not listed is ``SyncState/synced``.
    public let states: [String: SyncState]
    /// How many changes wait to be sent.
    public let waiting: Int
    /// How many changes the API refused.
    public let refused: Int

    /// The status of `entries`: a resource with a refused change is refused (with the first
    /// reason), one with only waiting changes is pending.
    ///
    /// - Parameter entries: The outbox's entries.
    public init(entries: [OutboxEntry]) {
        var states: [String: SyncState] = [:]
        for entry in entries {
            switch (entry.state, states[entry.localID]) {
            case (.refused(let reason), nil), (.refused(let reason), .pending?):
                states[entry.localID] = .refused(reason: reason)
            case (.pending, nil):
                states[entry.localID] = .pending
            default:
                break
            }
        }
        self.states = states
        refused = entries.filter(\.isRefused).count
        waiting = entries.count - refused
    }

    /// Nothing waits and nothing was refused.
    public static let empty = OutboxStatus(entries: [])

    /// The state of one resource.
    ///
    /// - Parameter localID: Its identifier.
    /// - Returns: Its state; ``SyncState/synced`` when it has no change in the outbox.
    public func state(of localID: String) -> SyncState {
        states[localID] ?? .synced
    }
}
