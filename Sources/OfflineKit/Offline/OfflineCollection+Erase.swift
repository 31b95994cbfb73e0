public import Promises
import Services

/// What a sign-out that erases leaves behind: nothing.
extension OfflineCollection {
    /// How many changes made by `account` wait here (held ones included): what erasing it would
    /// drop, for the user to confirm first ("Erase 3 changes not sent yet?").
    ///
    /// - Parameter account: The account (`Credentials/account`).
    /// - Returns: A promise of the count.
    public func unsentChanges(of account: String) -> Promise<Int> {
        let feature = outbox.feature
        return storage.tables.read { connection in
            let count = try connection.scalar(
                "SELECT count(*) FROM outbox WHERE feature = ? AND account = ?",
                [.text(feature), .text(account)])
            guard case .integer(let count)? = count else { return 0 }
            return Int(count)
        }
    }

    /// The account whose data this collection holds on this device (the first that wrote to it,
    /// until ``erase(account:)``), or `nil` when none does: for a screen that says whose data this
    /// is ("This device keeps amy's orders: sign in as amy to see them.").
    ///
    /// - Returns: A promise of the account.
    public func owner() -> Promise<String?> {
        let feature = outbox.feature
        return storage.tables.read { try OfflineOwner.account(of: feature, $0) }
    }

    /// The accounts whose changes wait here, with how many each (held ones included): for a
    /// signed-out screen ("Sign in as amy to send 3 changes").
    ///
    /// - Returns: A promise of the count of each account.
    public func unsentChangesByAccount() -> Promise<[String: Int]> {
        let feature = outbox.feature
        return storage.tables.read { connection in
            var counts: [String: Int] = [:]
            _ = try connection.query(
                "SELECT account, count(*) AS changes FROM outbox WHERE feature = ? AND account IS NOT NULL GROUP BY account",
                [.text(feature)]
            ) { counts[try $0.string("account")] = try $0.int("changes") }
            return counts
        }
    }

    /// Erases the collection as `account` left it on this device: the copy of the API's resources,
    /// the resources changed here, the copy's date and validators, the changes `account`
    /// made that wait, the map of the API's identifiers of what was created here, and its claim
    /// on the collection (another account may then use it);
    /// deleted with SQLite's `secure_delete` and the log emptied
    /// (`Database/erase(_:)`), so that no byte of them stays in the file or its `-wal`.
    /// Changes made with no sign-in stay.
    ///
    /// - Parameter account: The account signing out.
    /// - Returns: A promise of how many waiting changes were dropped.
    public func erase(account: String) -> Promise<Int> {
        let (storage, feature, spool) = (storage.unchecked, outbox.feature, outbox.transferSpool)
        return storage.tables.database.erase { connection -> Int in
            try storage.replaceAPICopy(with: [], in: connection)
            for id in try storage.idsChangedHere(in: connection) {
                try storage.remove(id: id, from: nil, in: connection)
            }
            try connection.execute("DELETE FROM cache_stamps WHERE name = ?", [.text(storage.copyStamp)])
            try connection.execute(
                "DELETE FROM offline_owners WHERE feature = ? AND account = ?",
                [.text(feature), .text(account)])
            // Handed to a transfer service and not sent yet: their requests (with the account's
            // token) go too. One the service is sending already may still reach the API. Removed
            // before the commit, not after: a rollback leaves the changes waiting, and a sync takes
            // a change whose request is missing back and sends it itself; a process gone between a
            // commit and the removal would leave a signed-out account's requests to be sent.
            let handed = try connection.query(
                "SELECT handed_off FROM outbox WHERE feature = ? AND account = ? AND handed_off IS NOT NULL",
                [.text(feature), .text(account)]
            ) { try $0.string("handed_off") }
            for name in handed { spool?.remove(name) }
            let dropped = try connection.execute(
                "DELETE FROM outbox WHERE feature = ? AND account = ?", [.text(feature), .text(account)])
            // The id map of what was created here goes with the copy; a change left waiting
            // (made with no sign-in) keeps the rows it still needs.
            try connection.execute(
                """
                DELETE FROM outbox_identifiers WHERE feature = ? AND NOT EXISTS (
                    SELECT 1 FROM outbox WHERE outbox.feature = outbox_identifiers.feature
                        AND outbox.local_id IN (outbox_identifiers.local_id, outbox_identifiers.api_id))
                """, [.text(feature)])
            return dropped
        }
    }
}
