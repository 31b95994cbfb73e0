public import Promises
import Services

/// Reading one resource: as changed here, from the API, or from the copy.
extension OfflineCollection {
    /// One resource: as changed here while a change of it waits, else from the API, or from the
    /// copy when the API cannot be reached ( `FailureClass/showsSavedCopy`). An identifier made
    /// here that the API has replaced with its own finds the resource, under its new identifier
    /// (``currentID(of:)``).
    ///
    /// - Parameter id: Its identifier.
    /// - Returns: A promise of the resource; rejected with `ServiceRequestError/noData` when
    ///   neither has it.
    public func fetch(id: String) -> Promise<Resource> {
        let (client, local) = (client, self)
        return currentID(of: id).then(on: .inline) { id in
            let path = local.path(of: id)
            return local.fetch(id: id) { client.get(path, as: Resource.self) }
        }
        .recover(on: .inline, policy: .allErrors) { throw ServiceRequestError($0) }
    }

    /// One resource, asking the API with `fetch` when no change of it waits; the copy's when the
    /// API cannot be reached, or `fetch`'s error when the copy does not have it either (offline,
    /// `ServiceRequestError/noData`).
    ///
    /// `fetch` is called without the identifier: one made here that the API has replaced is read
    /// from the copy under its new one, but `fetch` asks the API for whatever it captured. Prefer
    /// ``fetch(id:fetchingByID:)``, which gives `fetch` the API's identifier.
    ///
    /// - Parameters:
    ///   - id: Its identifier.
    ///   - fetch: Reads it from the API.
    /// - Returns: A promise of the resource.
    public func fetch(
        id: String, fetching fetch: @escaping @Sendable () -> Promise<Resource>
    ) -> Promise<Resource> {
        self.fetch(id: id, fetchingByID: { _ in fetch() })
    }

    /// One resource, asking the API with `fetch` when no change of it waits, given the identifier
    /// the API knows it by: an identifier made here that the API has replaced (a screen open during
    /// the sync, a link, a widget) is followed through the id map first, online as offline. The
    /// copy's when the API cannot be reached, or `fetch`'s error when the copy does not have it
    /// either (offline, `ServiceRequestError/noData`).
    ///
    /// ```swift
    /// orders.fetch(id: id) { current in api.getOrder(id: current) }
    /// ```
    ///
    /// - Parameters:
    ///   - id: Its identifier, here or at the API.
    ///   - fetch: Reads the resource with the given identifier from the API.
    /// - Returns: A promise of the resource.
    public func fetch(
        id: String, fetchingByID fetch: @escaping @Sendable (_ id: String) -> Promise<Resource>
    ) -> Promise<Resource> {
        let local = self
        return currentID(of: id).then(on: .inline) { id in local.fetchCurrent(id: id) { fetch(id) } }
    }

    /// ``fetch(id:fetching:)`` of an identifier that is current.
    private func fetchCurrent(
        id: String, fetching fetch: @escaping @Sendable () -> Promise<Resource>
    ) -> Promise<Resource> {
        let local = self
        return queued(id) {
            local.local(id)
        } orElse: {
            fetch().recover(on: .inline, policy: .allErrors) { error -> Promise<Resource> in
                let failure = FailureClass(error)
                guard failure.showsSavedCopy else { throw error }
                return local.local(id).recover(on: .inline, policy: .allErrors) {
                    missing -> Promise<Resource> in
                    // Not kept here either: offline, "no data"; otherwise what the API said.
                    guard failure.kind != .offline, ServiceRequestError(missing) == .noData else {
                        throw missing
                    }
                    throw error
                }
            }
        }
    }
}
