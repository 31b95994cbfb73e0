public import Promises
import Services

/// Edits made to the latest value kept here, one after the other per resource.
extension OfflineCollection {
    /// Changes resource `id` with `change`, applied to its latest value here (not to a value a
    /// screen showed earlier), sent as ``update(_:)`` sends a whole value. Changes of one resource
    /// made through this collection go one after the other, each on the value the one before it
    /// left, so two quick edits (a rename, then a tick) never undo each other; kept here and
    /// queued, the change is applied in the transaction that queues it. An identifier the API
    /// replaced finds the resource (``currentID(of:)``).
    ///
    /// ```swift
    /// tasks.update(id: task.id) { $0.done = true }
    /// ```
    ///
    /// - Parameters:
    ///   - id: The resource's identifier.
    ///   - change: Changes the value.
    /// - Returns: A promise of the resource as kept; rejected with
    ///   `ServiceRequestError/noData` when it is not kept here.
    public func update(id: String, _ change: @escaping @Sendable (inout Resource) -> Void) -> Promise<
        Resource
    > {
        let writes = self
        return edits.run(id) {
            writes.currentID(of: id).then(on: .inline) { writes.local($0) }.then(on: .inline) { current in
                var changed = current
                change(&changed)
                return writes.put(changed, applying: change)
            }
        }
        .recover(on: .inline, policy: .allErrors) { throw Self.reported($0) }
    }

    /// ``update(_:)`` of `resource`; queued, `change` is applied to the latest value instead.
    func put(_ resource: Resource, applying change: (@Sendable (inout Resource) -> Void)?) -> Promise<
        Resource
    > {
        let (client, path, writes) = (client, path(of: resource.id ?? ""), self)
        return renamingReferences(resource).then(on: .inline) { resource in
            writes.update(resource, applying: change) { key in
                client.put(
                    path, body: resource, as: Resource.self,
                    headers: APIClient.writeHeaders(idempotencyKey: key, basedOn: resource.version))
            }
        }
        .recover(on: .inline, policy: .allErrors) { throw Self.reported($0) }
    }
}
