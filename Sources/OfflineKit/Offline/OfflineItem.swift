import Services

/// One resource of an ``OfflineSnapshot``: its value as shown and whether the API has it.
public struct OfflineItem<Resource: OfflineResource>: Sendable {
    /// The resource as this device shows it.
    public let value: Resource
    /// Whether the API has it as shown; ``SyncState/synced`` only once the API confirmed it.
    public let state: SyncState

    /// Makes an item.
    ///
    /// - Parameters:
    ///   - value: The resource.
    ///   - state: Its sync state.
    public init(value: Resource, state: SyncState) {
        self.value = value
        self.state = state
    }
}

extension OfflineItem: Equatable where Resource: Equatable {}
