import Services

/// The order within a resource: no change overtakes an earlier one of its resource.
extension OutboxTable {
    /// Whether an earlier entry of `entry`'s resource is still queued: held (refused, stuck,
    /// conflicted or damaged), waiting for a resource it names, or another account's. Then `entry`
    /// waits behind it, so that no change overtakes one of its own resource.
    static func isBehind(_ entry: OutboxEntry, _ feature: String, _ connection: Connection) throws -> Bool {
        try connection.scalar(
            "SELECT 1 FROM outbox WHERE feature = ? AND local_id = ? AND sequence < ? LIMIT 1",
            [.text(feature), .text(entry.localID), .integer(entry.sequence)]) != nil
    }
}
