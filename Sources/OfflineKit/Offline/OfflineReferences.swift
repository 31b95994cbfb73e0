import Foundation
import Services

/// The references a collection declared (``OfflineCollection/referencing(_:)``), and the one place
/// that applies them: what a change waits for, and the API's identifiers in place of the ones made
/// here, read from the outbox's table of identifiers.
struct OfflineReferences<Resource: OfflineResource>: Sendable {
    let all: [OfflineReference<Resource>]

    /// Lets go of what `resource`'s fields hold once the API deleted it (``OfflineReference/released``).
    func released(_ resource: Resource, _ connection: Connection) throws {
        for reference in all { try reference.released?(resource, connection) }
    }

    /// ``waitingParent(of:_:)`` as `collection/id`; `nil` when it names none (then it may be sent).
    func parentWaiting(for resource: Resource, _ connection: Connection) throws -> String? {
        try waitingParent(of: resource, connection).map { "\($0.collection)/\($0.id)" }
    }

    /// The first resource `resource` names whose create still waits here; `nil` when none.
    func waitingParent(of resource: Resource, _ connection: Connection) throws -> (
        collection: String, id: String
    )? {
        for reference in all {
            for id in reference.ids(resource)
            where try OutboxTable.createWaits(id, feature: reference.collection, connection) {
                return (reference.collection, id)
            }
        }
        return nil
    }

    /// The parent a waiting change waits for: none for a delete or a held change.
    func waitingParent(of entry: OutboxEntry, _ connection: Connection) throws -> (
        collection: String, id: String
    )? {
        guard entry.method != .delete, !entry.isHeld, let body = entry.body,
            let value = try? APIClient.decode(Resource.self, from: body)
        else { return nil }
        return try waitingParent(of: value, connection)
    }

    /// `resource` naming each resource it refers to by the API's identifier, where the API gave
    /// one; whether anything changed.
    func rename(_ resource: inout Resource, _ connection: Connection) throws -> Bool {
        var known: [String: String?] = [:]
        return try rename(&resource, connection, known: &known)
    }

    /// The API's identifier of `id` of `collection` as the table of identifiers holds it (a
    /// discarded create's mark included), looked up once per preparation: `known` keeps each.
    private func apiID(
        of id: String, in collection: String, _ connection: Connection, known: inout [String: String?]
    ) throws -> String? {
        let key = collection + "/" + id
        if let found = known[key] { return found }
        let found = try OutboxTable.apiID(of: id, feature: collection, connection)
        known[key] = found
        return found
    }

    /// ``rename(_:_:)``, with the identifiers looked up already in `known`.
    private func rename(
        _ resource: inout Resource, _ connection: Connection, known: inout [String: String?]
    ) throws -> Bool {
        var changed = false
        for reference in all {
            var found: [String: String] = [:]
            for id in reference.ids(resource) {
                if let apiID = try apiID(of: id, in: reference.collection, connection, known: &known),
                    apiID != OutboxTable.discarded
                {
                    found[id] = apiID
                }
            }
            guard !found.isEmpty else { continue }
            reference.renaming(&resource) { found[$0] ?? $0 }
            changed = true
        }
        return changed
    }

    /// The first resource `resource` names whose create was deleted or discarded here, with its
    /// reference: the API never had it, and a change naming it must not be sent.
    func parentGone(for resource: Resource, _ connection: Connection) throws -> (
        reference: OfflineReference<Resource>, parent: String
    )? {
        var known: [String: String?] = [:]
        return try parentGone(for: resource, connection, known: &known)
    }

    /// ``parentGone(for:_:)``, with the identifiers looked up already in `known`.
    private func parentGone(
        for resource: Resource, _ connection: Connection, known: inout [String: String?]
    ) throws -> (reference: OfflineReference<Resource>, parent: String)? {
        for reference in all {
            for id in reference.ids(resource)
            where try apiID(of: id, in: reference.collection, connection, known: &known)
                == OutboxTable.discarded
            {
                return (reference, "\(reference.collection)/\(id)")
            }
        }
        return nil
    }

    /// `resource` as `rename(_:_:)` makes it, for reading.
    func renamed(_ resource: Resource, _ connection: Connection) throws -> Resource {
        var renamed = resource
        _ = try rename(&renamed, connection)
        return renamed
    }

    /// Readies an entry of `storage`'s outbox for sending: passed over (`nil`) while a resource its
    /// body names waits for its create; when that create was deleted or discarded, held for the
    /// user or dropped with its parent, as the reference says (never sent); otherwise its body
    /// names the API's identifiers, written back in the same transaction. A delete, or a body
    /// that is not the resource, goes as it is.
    func preparing(
        _ storage: AnyOfflineStorage<Resource>, createPath: (@Sendable (Resource) -> String)?
    ) -> Outbox.Preparation {
        { entry, connection in
            guard entry.method != .delete, let body = entry.body,
                var value = try? APIClient.decode(Resource.self, from: body)
            else { return entry }
            if try parentWaiting(for: value, connection) != nil { return nil }
            // Each identifier the body names is looked up once, for all that follows.
            var known: [String: String?] = [:]
            if let (reference, parent) = try parentGone(for: value, connection, known: &known) {
                switch reference.parentGone {
                case .holdChild:
                    try OutboxTable.refuse(
                        entry,
                        reason:
                            "It names \(parent), which was deleted or discarded on this device: the API never had it.",
                        connection)
                case .deleteChild:
                    let feature = storage.outbox.feature
                    let entries = try OutboxTable.entries(feature, entry.localID, connection)
                    try storage.undo(entries, of: entry.localID, in: connection)
                    try OutboxTable.drop(entries, of: entry.localID, feature: feature, connection)
                }
                return nil
            }
            guard try rename(&value, connection, known: &known) else { return entry }
            var ready = entry
            ready.body = try APIClient.encode(value)
            if entry.method == .post, let createPath { ready.path = createPath(value) }
            // The row here is left as it is: every read of it (`AnyOfflineStorage`) names the
            // API's identifiers already, and queries follow both.
            try OutboxTable.rewrite(entry, body: ready.body ?? body, path: ready.path, connection)
            return ready
        }
    }
}
