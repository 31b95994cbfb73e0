public import Dispatch
import Foundation
public import Promises
public import Services

/// Reads that join: each resource with the one it names, from two collections of one database.
extension OfflineCollection {
    /// The resources shown, each with the resource of `parents` its `field` names, read in one
    /// transaction: a task with its project, offline as online. References are read with the API's
    /// identifiers (``referencing(_:)``), so a task made before its project was sent still finds it.
    ///
    /// - Parameters:
    ///   - parents: The collection `field` refers to.
    ///   - field: The field that names the parent, such as `\.projectID`.
    /// - Returns: A promise of the joined resources, in the order ``snapshot()`` shows them.
    public func snapshot<Parent>(
        joining parents: OfflineCollection<Parent>, on field: any KeyPath<Resource, String?> & Sendable
    ) -> Promise<[OfflineJoined<Resource, Parent>]> {
        let (children, parents) = (storage, parents.storage)
        return storage.tables.read { try Self.joined(children, parents, field, $0) }
    }

    /// Observes ``snapshot(joining:on:)``: the joined resources at once, then after every change of
    /// either collection, in this process or another writing the same file; an equal result is not
    /// delivered twice.
    ///
    /// - Parameters:
    ///   - parents: The collection `field` refers to.
    ///   - field: The field that names the parent.
    ///   - dispatcher: Where `onChange` runs; the main queue by default.
    ///   - onChange: Gets each result, or why it could not be read.
    /// - Returns: The observation; it ends when cancelled or released.
    public func observe<Parent: Equatable>(
        joining parents: OfflineCollection<Parent>, on field: any KeyPath<Resource, String?> & Sendable,
        on dispatcher: any Dispatcher = DispatchQueue.main,
        _ onChange:
            @escaping @Sendable (Result<[OfflineJoined<Resource, Parent>], ServiceRequestError>) -> Void
    ) -> ObservationHandle where Resource: Equatable {
        let (children, parentStorage) = (storage, parents.storage)
        // Either storage naming no tables of its own: every table is watched.
        let tables =
            children.snapshotTables.isEmpty || parentStorage.snapshotTables.isEmpty
            ? [] : children.snapshotTables.union(parentStorage.snapshotTables)
        return storage.tables.database.observe(tables: tables, on: dispatcher) { connection in
            try Self.joined(children, parentStorage, field, connection)
        } onChange: { result in
            onChange(result.mapError { ServiceRequestError($0) })
        }
    }

    /// The join, in the caller's read transaction.
    private static func joined<Parent>(
        _ children: AnyOfflineStorage<Resource>, _ parents: AnyOfflineStorage<Parent>,
        _ field: any KeyPath<Resource, String?> & Sendable, _ connection: Connection
    ) throws -> [OfflineJoined<Resource, Parent>] {
        let snapshot = try children.snapshot(in: connection)
        var byID: [String: Parent] = [:]
        for parent in try parents.resources(in: connection) { byID[parent.id ?? ""] = parent }
        return snapshot.items.map { item in
            OfflineJoined(item: item, parent: item.value[keyPath: field].flatMap { byID[$0] })
        }
    }
}
