public import Promises
import Services

/// The one way a presenter tells its view that a change failed: a conflict with both sides (to
/// keep mine or theirs), anything else in one sentence (``ServiceRequestError/userMessage``).
extension Promise {
    /// The same promise; when it fails, on the main actor first, `conflict` is given an
    /// ``OfflineConflict`` of `resource` (both sides, for the user to choose), or `error` the
    /// sentence any other failure reads as. The promise still fails, so a caller that waits knows.
    /// A cancellation is told to neither.
    ///
    /// ```swift
    /// public func delete(id: String) -> Promise<Void> {
    ///     notes.delete(id: id).asVoid().reportingChangeFailure(
    ///         of: Note.self, conflict: { [weak self] in self?.view?.showConflicts([$0]) },
    ///         error: { [weak self] in self?.view?.showError($0) })
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - resource: The collection's resource, whose conflicts are handed over.
    ///   - conflict: Shows a conflict.
    ///   - error: Shows any other failure's sentence.
    /// - Returns: The promise, failing as this one.
    public func reportingChangeFailure<Resource: OfflineResource>(
        of resource: Resource.Type,
        conflict: @escaping @MainActor (OfflineConflict<Resource>) -> Void,
        error: @escaping @MainActor (String) -> Void
    ) -> Promise<Value> {
        recover { failure -> Promise<Value> in
            if let found = failure as? OfflineConflict<Resource> {
                conflict(found)
            } else {
                error(ServiceRequestError(failure).userMessage)
            }
            throw failure
        }
    }
}
