import Services

/// A field of a resource that names another resource (its parent) by identifier: a task's project,
/// an order's customer, a sub-task's parent task. Declared once with
/// ``OfflineCollection/referencing(_:)``, it makes the collection send a change only after the
/// create of every resource it names was answered, with the API's identifier in place of the one
/// made here.
///
/// ```swift
/// let tasks = OfflineCollection<PlannedTask>(database: database, collection: "tasks", client: api)
///     .referencing(.field(\.projectID, to: projects), .field(\.parentID, to: "tasks"))
/// ```
public struct OfflineReference<Resource: OfflineResource>: Sendable {
    /// The collection of the resources the field names, such as `projects`.
    public let collection: String
    /// The identifiers the field holds in `resource`.
    let ids: @Sendable (_ resource: Resource) -> [String]
    /// `resource` with each identifier of the field replaced by what `rename` gives for it.
    let renaming: @Sendable (_ resource: inout Resource, _ rename: (String) -> String) -> Void
    /// What becomes of a change naming a parent the API will never have; see ``whenParentGone(_:)``.
    var parentGone = ParentGone.holdChild
    /// What the field lets go of once the API deleted `resource` (an attachment's kept file), in
    /// the transaction that removes it here; `nil` for a field that names records only.
    var released: (@Sendable (_ resource: Resource, _ connection: Connection) throws -> Void)?

    /// What becomes of a change that names a parent deleted or discarded on this device before
    /// the API had it: the API will never have the parent, and the change is never sent naming
    /// it. Applied where the change is readied for sending, whichever collection or process syncs.
    public enum ParentGone: Sendable {
        /// The change is held, refused with a reason that names the parent, until the user
        /// discards it (or points it elsewhere and it is retried). The default.
        case holdChild
        /// The child goes with its parent: its waiting changes are dropped and undone here (one
        /// the API never had goes, one it has comes back as the API has it).
        case deleteChild
    }

    /// The same reference, with `rule` for a change naming a parent deleted or discarded here
    /// before the API had it.
    ///
    /// ```swift
    /// .referencing(.field(\.projectID, to: projects).whenParentGone(.deleteChild))
    /// ```
    ///
    /// - Parameter rule: Hold the child (the default), or delete it with its parent.
    /// - Returns: The reference with the rule.
    public func whenParentGone(_ rule: ParentGone) -> OfflineReference {
        var reference = self
        reference.parentGone = rule
        return reference
    }

    /// A field that names one resource of `collection`, or none.
    ///
    /// - Parameters:
    ///   - field: The field, such as `\.projectID`.
    ///   - collection: The collection of the resources it names (the same one for a sub-task's
    ///     parent).
    /// - Returns: The reference.
    public static func field(
        _ field: any WritableKeyPath<Resource, String?> & Sendable, to collection: String
    ) -> OfflineReference {
        OfflineReference(collection: collection) { resource in
            resource[keyPath: field].map { [$0] } ?? []
        } renaming: { resource, rename in
            resource[keyPath: field] = resource[keyPath: field].map(rename)
        }
    }

    /// A field that always names one resource of `collection`.
    ///
    /// - Parameters:
    ///   - field: The field, such as `\.projectID`.
    ///   - collection: The collection of the resources it names.
    /// - Returns: The reference.
    public static func field(
        _ field: any WritableKeyPath<Resource, String> & Sendable, to collection: String
    ) -> OfflineReference {
        OfflineReference(collection: collection) { resource in
            [resource[keyPath: field]]
        } renaming: { resource, rename in
            resource[keyPath: field] = rename(resource[keyPath: field])
        }
    }

    /// A field that names any number of resources of `collection` (a note's tags).
    ///
    /// - Parameters:
    ///   - field: The field, such as `\.tagIDs`.
    ///   - collection: The collection of the resources it names.
    /// - Returns: The reference.
    public static func list(
        _ field: any WritableKeyPath<Resource, [String]> & Sendable, to collection: String
    ) -> OfflineReference {
        OfflineReference(collection: collection) { resource in
            resource[keyPath: field]
        } renaming: { resource, rename in
            resource[keyPath: field] = resource[keyPath: field].map(rename)
        }
    }

    /// A field that names one resource of `parents`, or none.
    ///
    /// - Parameters:
    ///   - field: The field, such as `\.projectID`.
    ///   - parents: The collection of the resources it names.
    /// - Returns: The reference.
    public static func field<Parent>(
        _ field: any WritableKeyPath<Resource, String?> & Sendable, to parents: OfflineCollection<Parent>
    ) -> OfflineReference {
        .field(field, to: parents.collection)
    }

    /// A field that always names one resource of `parents`.
    ///
    /// - Parameters:
    ///   - field: The field, such as `\.projectID`.
    ///   - parents: The collection of the resources it names.
    /// - Returns: The reference.
    public static func field<Parent>(
        _ field: any WritableKeyPath<Resource, String> & Sendable, to parents: OfflineCollection<Parent>
    ) -> OfflineReference {
        .field(field, to: parents.collection)
    }
}
