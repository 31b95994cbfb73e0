extension OfflineReference {
    /// A field of attachments: the resource's change waits until each file it names is uploaded,
    /// and goes naming the API's upload ids, as a change naming a parent waits for its create.
    /// Once the API deleted the resource, the files it named are no longer kept here (unless
    /// another attachment keeps the same bytes).
    ///
    /// ```swift
    /// let orders = OfflineCollection<Order>(database: database, collection: "orders", client: api)
    ///     .referencing(.attachments(\.attachments, to: files))
    /// ```
    ///
    /// - Parameters:
    ///   - field: The field, such as `\.attachments`.
    ///   - files: The attachments the field's files were attached with.
    /// - Returns: The reference.
    public static func attachments(
        _ field: any WritableKeyPath<Resource, [OfflineAttachment]> & Sendable, to files: OfflineAttachments
    ) -> OfflineReference {
        var reference = OfflineReference(collection: files.feature) { resource in
            resource[keyPath: field].map(\.id)
        } renaming: { resource, rename in
            for index in resource[keyPath: field].indices {
                resource[keyPath: field][index].id = rename(resource[keyPath: field][index].id)
            }
        }
        reference.released = { resource, connection in
            try files.release(resource[keyPath: field], connection)
        }
        return reference
    }
}
