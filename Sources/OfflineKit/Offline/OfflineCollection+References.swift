import Foundation
public import Promises
import Services

/// Related records: fields that name resources of this collection or another in the same
/// database, followed when the API gives a resource created here its own identifier.
extension OfflineCollection {
    /// The same collection, whose resources name others through `references`.
    ///
    /// Then a change that names a resource whose create the API has not answered yet waits for
    /// it, whichever collection or process syncs first: it is passed over (with the later changes
    /// of its resource) while other resources' changes go, and sent at a sync after the create was
    /// answered. It is sent naming the API's identifier, and the copy here is rewritten to it in
    /// the same transaction. Until then, every read (``list(policy:sendingFirst:showingCopy:)``,
    /// ``snapshot()``, pages, ``fetch(id:)``) already shows the API's identifier once the API gave
    /// it: the identifiers it gave are kept in the database (by the outbox that sent each create),
    /// so a screen or another process holding the old identifier finds the new one. An online
    /// write that names a resource whose create waits is queued instead of sent.
    ///
    /// - Parameter references: The fields, such as `.field(\.projectID, to: projects)`.
    /// - Returns: The collection with the references.
    public func referencing(_ references: OfflineReference<Resource>...) -> OfflineCollection {
        var referencing = self
        let all = (storage.references?.all ?? []) + references
        referencing.storage.references = OfflineReferences(all: all)
        return referencing
    }

    /// The same collection, creating each resource at the path `path` gives for it: for an API that
    /// creates a child under its parent (`POST projects/{id}/tasks`). A create queued here is sent
    /// to the path made from the resource as it is sent, so with its parent's identifier from the
    /// API (``referencing(_:)``).
    ///
    /// ```swift
    /// let tasks = OfflineCollection<PlannedTask>(database: database, collection: "tasks", client: api)
    ///     .referencing(.field(\.projectID, to: projects))
    ///     .creating { "projects/\(APIClient.pathSegment($0.projectID ?? ""))/tasks" }
    /// ```
    ///
    /// - Parameter path: The path of a create, relative to the API's base URL.
    /// - Returns: The collection with the path.
    public func creating(at path: @escaping @Sendable (Resource) -> String) -> OfflineCollection {
        var creating = self
        creating.createPath = path
        return creating
    }

    /// The path a create of `resource` is POSTed to.
    func creationPath(of resource: Resource) -> String {
        createPath?(resource) ?? collection
    }

    /// The identifier resource `id` has now: the API's, when it was created here under `id` and the
    /// API named it otherwise; `id` itself otherwise.
    ///
    /// - Parameter id: An identifier this device gave out (or the API's).
    /// - Returns: A promise of the identifier to use.
    public func currentID(of id: String) -> Promise<String> {
        let collection = collection
        return storage.tables.read { try OutboxTable.renamed(id, feature: collection, $0) ?? id }
    }

    /// `resource` naming the API's identifiers of the resources it refers to, where given.
    func renamingReferences(_ resource: Resource) -> Promise<Resource> {
        guard let references = storage.references else { return .value(resource) }
        return storage.tables.read { try references.renamed(resource, $0) }
    }

    /// Whether `resource` names a resource whose create still waits here.
    func waitsForParent(_ resource: Resource) -> Promise<Bool> {
        guard let references = storage.references else { return .value(false) }
        return storage.tables.read { try references.parentWaiting(for: resource, $0) != nil }
    }
}

/// Why a change waits for its parent.
extension OfflineCollection {
    /// The resource whose create holds back the changes of resource `id`, and where it stands:
    /// `nil` when nothing it names is waiting (its changes go at the next sync, or went).
    ///
    /// A child of a parent the API refused stays ``SyncState/pending`` itself, and goes once the
    /// parent is sent (``retry(id:)`` on the parent's collection); a parent deleted here before
    /// the API had it, or discarded, holds the child as refused, with a reason that names it.
    ///
    /// - Parameter id: The resource's identifier here.
    /// - Returns: A promise of the parent that holds it, if any.
    public func waitingParent(of id: String) -> Promise<OfflineParentWait?> {
        guard let references = storage.references else { return .value(nil) }
        let collection = collection
        return storage.tables.read { connection -> OfflineParentWait? in
            let entries = try OutboxTable.entries(collection, id, connection)
            for entry in entries {
                guard let parent = try references.waitingParent(of: entry, connection) else { continue }
                let creates = try OutboxTable.entries(parent.collection, parent.id, connection)
                let state = OutboxStatus(entries: creates).state(of: parent.id)
                return OfflineParentWait(collection: parent.collection, id: parent.id, state: state)
            }
            return nil
        }
    }
}
