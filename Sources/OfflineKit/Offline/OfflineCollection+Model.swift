import Promises
package import Services

/// Models that change between app versions.
extension OfflineCollection {
    /// The collection at model `version`, brought there from any earlier one by `steps` (the first
    /// moves version 1 to 2, the next 2 to 3, and so on): before its first read, write or sync,
    /// every change waiting in its outbox (body, base and conflict copy) and every row of its copy
    /// written at an older version is brought to this one, in one transaction, so nothing is sent
    /// or shown in an older shape. A change a step cannot bring over is damaged with the reason,
    /// never sent, and can be discarded; the others go on. A file written at a newer version than
    /// `version` (an older app after a downgrade) is refused whole with
    /// ``OfflineModelError/newerData(collection:stored:reads:)``: nothing is written over or sent.
    ///
    /// ```swift
    /// let notes = OfflineCollection<Note>(database: database, collection: "notes", client: api)
    ///     .model(version: 2, steps: [.renaming("text", to: "body")])
    /// ```
    ///
    /// - Parameters:
    ///   - version: The model's version now, from 1 (a collection that never declared one).
    ///   - steps: Exactly `version - 1` steps, oldest first: one a version (several changes of one
    ///     version are one ``OfflineModelStep/combining(_:)`` step). Any other count, or a version
    ///     below 1, fails every read, write and sync with ``OfflineModelError/stepsMissing(collection:version:steps:)``
    ///     before anything is read: nothing is dropped silently.
    /// - Returns: The collection at that version.
    public func model(version: Int, steps: [OfflineModelStep]) -> OfflineCollection {
        var copy = self
        copy.gate(version: version, steps: steps)
        return copy
    }

    /// What the collection's tables wait for before any read or write: its model's check and
    /// upgrade. A feature that reads the same tables its own way waits for it too.
    package var modelGate: OnceReady? { storage.tables.gate }

    /// Makes the tables and the outbox wait for the upgrade to `version` (replacing any gate set
    /// before, which then never runs).
    mutating func gate(version: Int, steps: [OfflineModelStep]) {
        let gate = OfflineModelUpgrade.gate(
            storage.tables.database, after: [storage.tables.ready, outbox.ready],
            feature: collection, rows: storage.jsonRows, version: version, steps: steps)
        storage.tables.gate = gate
        storage.outbox.table.gate = gate
        outbox.table.gate = gate
    }
}
