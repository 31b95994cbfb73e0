import Services

/// What holds a resource's change back: a resource it names (its parent) whose create has not
/// been answered by the API, and where that create stands. A screen says it with the parent's
/// own name: "waiting for customer Eve Elder, which the shop refused".
///
/// Given by ``OfflineCollection/waitingParent(of:)``.
public struct OfflineParentWait: Sendable, Equatable {
    /// The parent's collection, such as `customers`.
    public let collection: String
    /// The parent's identifier here.
    public let id: String
    /// Its create's state: ``SyncState/pending`` while it is on its way; refused, stuck, in
    /// conflict or damaged while it waits for the user, and the child with it.
    public let state: SyncState

    /// Makes the value.
    ///
    /// - Parameters:
    ///   - collection: The parent's collection.
    ///   - id: The parent's identifier here.
    ///   - state: Its create's state.
    public init(collection: String, id: String, state: SyncState) {
        (self.collection, self.id, self.state) = (collection, id, state)
    }
}
