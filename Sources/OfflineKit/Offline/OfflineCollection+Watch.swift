public import Foundation
public import Promises
public import Services

/// The collection as a screen shows it: one snapshot, read once or after every change.
extension OfflineCollection {
    /// Observes the collection: `onChange` gets its ``OfflineSnapshot`` at once, then after every
    /// commit that changes it (a listing, an edit, a sync, a resolution), in this process or
    /// another writing the same file; a snapshot equal to the one delivered last is not delivered
    /// again. See `Database/observe(tables:on:read:onChange:)` for the rules it follows.
    ///
    /// ```swift
    /// observation = notes.observe { result in
    ///     if case .success(let snapshot) = result { view.show(snapshot.items) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - dispatcher: Where `onChange` runs; the main queue by default.
    ///   - onChange: Gets each snapshot, or why it could not be read.
    /// - Returns: The observation; it ends when cancelled or released, so keep it for as long as
    ///   the screen is shown.
    public func observe(
        on dispatcher: any Dispatcher = DispatchQueue.main,
        _ onChange: @escaping @Sendable (Result<OfflineSnapshot<Resource>, ServiceRequestError>) -> Void
    ) -> ObservationHandle where Resource: Equatable {
        storage.observe(on: dispatcher, onChange)
    }

    /// Throws `AuthenticationError` when this device keeps another account's data in the
    /// collection (signed out, or signed in as another account): for a feature's own read of the
    /// collection's tables (a page read through its own index, say), which must show nothing of
    /// theirs either. Reads through the collection check it themselves.
    ///
    /// - Parameter connection: The connection of the read's transaction.
    /// - Throws: `AuthenticationError` naming whose data it is.
    public func checkAccount(in connection: Connection) throws {
        try storage.owner?.check(connection, claiming: false)
    }

    /// Observes the collection for `ListLoad/watch(_:following:)`: each snapshot as read from
    /// the copy (`DataSource/stored(savedAt:)`); a snapshot that cannot be read, or of a
    /// collection that holds nothing yet, is not delivered.
    ///
    /// - Parameter changed: Gets each snapshot, from any thread.
    /// - Returns: The observation.
    public func observe(
        _ changed: @escaping @Sendable (Fetched<OfflineSnapshot<Resource>>) -> Void
    ) -> ObservationHandle where Resource: Equatable {
        observe(on: .inline) { result in
            guard case .success(let snapshot) = result, let savedAt = snapshot.savedAt else { return }
            changed(Fetched(value: snapshot, source: .stored(savedAt: savedAt)))
        }
    }

    /// The snapshot as kept here, read once.
    ///
    /// - Returns: A promise of the snapshot.
    public func snapshot() -> Promise<OfflineSnapshot<Resource>> {
        let storage = storage
        return storage.tables.read { try storage.snapshot(in: $0) }
    }
}
