import Foundation
public import Promises
import Services

/// A long collection a page at a time, in an order the feature declares.
extension OfflineCollection {
    /// The first page of the resources shown, in `order`, with their sync states. Pages are read
    /// from the copy here (list or sync first to bring the API's changes); a page's
    /// ``OfflinePage/next`` continues it with ``page(after:limit:)``.
    ///
    /// - Parameters:
    ///   - limit: At most how many resources; at least 1.
    ///   - order: The field the pages are sorted by, ties broken by identifier.
    /// - Returns: A promise of the page; rejected with `ServiceRequestError/storageFailed(reason:)`
    ///   when the field's name is not letters, digits and `_`, or no resource has that field (a
    ///   misspelt name would otherwise give a page in identifier order).
    public func page(limit: Int, order: OfflineOrder) -> Promise<OfflinePage<Resource>> {
        guard order.isValid else {
            return Promise(
                error: ServiceRequestError.storageFailed(
                    reason: "\"\(order.field)\" cannot order pages: a field's name is letters, digits and _"))
        }
        let (storage, local) = (storage, self)
        // The index first, in a write; a file that cannot be written is still paged, by a scan.
        return storage.tables.write { try storage.preparePages(order, in: $0) }
            .recover(on: .inline) { _ in Guarantee.value(()) }.asPromise()
            .then(on: .inline) { local.read(order, after: nil, limit: limit) }
    }

    /// The page after `cursor`, in the cursor's order: resources saved or deleted since the page
    /// before neither repeat nor go missing.
    ///
    /// - Parameters:
    ///   - cursor: Where the page before ended (its ``OfflinePage/next``).
    ///   - limit: At most how many resources; at least 1.
    /// - Returns: A promise of the page.
    public func page(after cursor: OfflinePageCursor, limit: Int) -> Promise<OfflinePage<Resource>> {
        read(cursor.order, after: cursor, limit: limit)
    }

    /// Throws unless the resources have `order`'s field: one of the first page has a value for it,
    /// or the resource declares a property of that name, or any resource kept has it. A collection
    /// with nothing in it has nothing to check.
    private static func requireField(
        _ order: OfflineOrder, _ rows: [(value: Resource, key: SQLValue)],
        _ storage: AnyOfflineStorage<Resource>,
        _ connection: Connection
    ) throws {
        guard let first = rows.first?.value, rows.allSatisfy({ $0.key == .null }),
            !Mirror(reflecting: first).children.contains(where: { $0.label == order.field }),
            try storage.resources(in: connection).allSatisfy({
                try OfflinePageCursor.key(of: $0, order) == .null
            })
        else { return }
        throw ServiceRequestError.storageFailed(
            reason: "\"\(order.field)\" cannot order pages: no \(Resource.self) has a field of that name")
    }

    /// One page and the status, read in one transaction.
    private func read(_ order: OfflineOrder, after cursor: OfflinePageCursor?, limit: Int)
        -> Promise<OfflinePage<Resource>>
    {
        let (storage, limit) = (storage, max(1, limit))
        return storage.tables.read { connection in
            let rows = try storage.page(order, after: cursor, limit: limit + 1, in: connection)
            if cursor == nil { try Self.requireField(order, rows, storage, connection) }
            let status = try storage.outbox.status(
                in: connection, changedHere: try storage.idsChangedHere(in: connection))
            let shown = rows.prefix(limit)
            let next =
                rows.count > limit
                ? shown.last.map {
                    OfflinePageCursor(order: order, key: $0.key, id: $0.value.id ?? "")
                } : nil
            return OfflinePage(
                items: shown.map { OfflineItem(value: $0.value, state: status.state(of: $0.value.id ?? "")) },
                status: status, next: next, savedAt: try storage.copySavedAt(in: connection))
        }
    }
}
