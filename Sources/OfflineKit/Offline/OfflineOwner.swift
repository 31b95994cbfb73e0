import Services

/// Whose data a collection holds on this device, when its client signs in: the first account that
/// writes to it (a listing saved, a change made) owns it until ``OfflineCollection/erase(account:)``.
/// While it does, no other account, and nobody signed out, reads or writes it: one user's data
/// never reaches another on a shared device, and the owner's kept changes wait for its sign-in.
struct OfflineOwner: Sendable {
    /// The collection, as its outbox names it.
    let feature: String
    let credentials: any Credentials

    /// Throws `AuthenticationError` when the collection holds the data of an account that is not
    /// the one signed in; else, `claiming` (in a write), makes the signed-in account its owner if
    /// it has none.
    func check(_ connection: Connection, claiming: Bool) throws {
        let account = credentials.account
        if let owner = try Self.account(of: feature, connection) {
            guard owner == account else {
                throw AuthenticationError(
                    account == nil
                        ? "This device keeps \(owner)'s \(feature): sign in as \(owner) to see them."
                        : "This device keeps \(owner)'s \(feature): sign in as \(owner), or erase their data first."
                )
            }
            return
        }
        if claiming, let account {
            try connection.execute(
                "INSERT INTO offline_owners (feature, account) VALUES (?, ?)",
                [.text(feature), .text(account)])
        }
    }

    /// The account that owns `feature` here, or `nil`.
    static func account(of feature: String, _ connection: Connection) throws -> String? {
        let holder = try connection.scalar(
            "SELECT account FROM offline_owners WHERE feature = ?", [.text(feature)])
        guard case .text(let owner)? = holder else { return nil }
        return owner
    }
}
