import Services

/// The `outbox` schema, step by step.
extension Outbox {
    /// The steps of the `outbox` schema. The outbox applies them itself, through
    /// `Database/migrate(schema:_:)`, when it is made; they are not for `Database(at:migrations:)`,
    /// which would make the tables a second time.
    static let migrations = [
        Migration(
            version: 1,
            sql: """
                CREATE TABLE outbox (
                    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                    feature TEXT NOT NULL,
                    local_id TEXT NOT NULL,
                    method TEXT NOT NULL,
                    path TEXT NOT NULL,
                    body BLOB,
                    idempotency_key TEXT NOT NULL UNIQUE,
                    refusal TEXT,
                    created_at REAL NOT NULL
                );
                CREATE INDEX outbox_by_resource ON outbox (feature, local_id);
                """),
        // What failed attempts left: how many in a row, what the last said (and its status), when
        // the entry may be sent again (the API's Retry-After, or the backoff), and whether it is
        // stuck (failed too often: held until retried or discarded, others going on).
        Migration(
            version: 2,
            sql: """
                ALTER TABLE outbox ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE outbox ADD COLUMN last_error TEXT;
                ALTER TABLE outbox ADD COLUMN last_status INTEGER;
                ALTER TABLE outbox ADD COLUMN not_before REAL;
                ALTER TABLE outbox ADD COLUMN stuck INTEGER NOT NULL DEFAULT 0;
                """),
        // Whether the entry may have reached the API (a sync sent it, or an online attempt whose
        // answer never came): nothing is merged into it any more (see coalescing in `OutboxTable`).
        Migration(version: 3, sql: "ALTER TABLE outbox ADD COLUMN attempted INTEGER NOT NULL DEFAULT 0"),
        // Versions and conflicts: the version and the API's copy a change was made from (sent as
        // `If-Match`, and the base of a three-way merge), and, once the API answered 412 or said
        // the resource is gone, the conflict (1: changed there, 2: deleted there) and the API's copy.
        Migration(
            version: 4,
            sql: """
                ALTER TABLE outbox ADD COLUMN base_version TEXT;
                ALTER TABLE outbox ADD COLUMN base BLOB;
                ALTER TABLE outbox ADD COLUMN conflict INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE outbox ADD COLUMN theirs BLOB;
                """),
        // A sync reads "the next entry of this feature after sequence N" once per change. With
        // only `outbox_by_resource`, SQLite read every entry of the feature and sorted them for
        // each one: 1,000 queued changes cost 500,000 row reads to send. This index is that
        // order itself, so each read is one seek.
        Migration(version: 5, sql: "CREATE INDEX outbox_by_feature ON outbox (feature, sequence)"),
        // One sync per feature at a time across processes: the claim of the sync sending (see
        // `OutboxClaim`).
        Migration(
            version: 6,
            sql: """
                CREATE TABLE outbox_claims (
                    feature TEXT PRIMARY KEY, owner TEXT NOT NULL, expires REAL NOT NULL,
                    pid INTEGER NOT NULL, host TEXT NOT NULL)
                """),
        // The account each change was made by (`Credentials/account`), so that it is only ever
        // sent with that account's credentials; `NULL` for a change made with no sign-in.
        Migration(version: 7, sql: "ALTER TABLE outbox ADD COLUMN account TEXT"),
        // Whose data each collection holds (`OfflineOwner`): one account's copy is never shown to
        // another.
        Migration(
            version: 8,
            sql: "CREATE TABLE offline_owners (feature TEXT PRIMARY KEY, account TEXT NOT NULL)"),
        // Clocks that jump: the wait each entry was granted, in seconds, so that a `not_before`
        // written under a wrong clock is capped when read (`OutboxReplay.next`); and a heartbeat
        // the claim's holder advances at each renewal, so that a live holder is told apart by its
        // progress, never by a wall-clock lapse (`OutboxClaim`).
        Migration(
            version: 9,
            sql: """
                ALTER TABLE outbox ADD COLUMN wait REAL;
                ALTER TABLE outbox_claims ADD COLUMN beat INTEGER NOT NULL DEFAULT 0;
                """),
        // Related records: the API's identifier of each resource created here, by the one it had
        // here, kept after its create left the outbox, so that a change or a screen that still
        // names the old one (in this process or another, before or after a crash) finds the new
        // one (`OutboxTable+Identifiers`).
        Migration(
            version: 10,
            sql: """
                CREATE TABLE outbox_identifiers (
                    feature TEXT NOT NULL, local_id TEXT NOT NULL, api_id TEXT NOT NULL,
                    PRIMARY KEY (feature, local_id)) WITHOUT ROWID
                """),
        // Models that change between app versions: the version each collection's stored JSON
        // is at (none: 1), and, for a change its upgrade could not bring to the current version,
        // why: it is then damaged, never sent (`OfflineModelUpgrade`).
        Migration(
            version: 11,
            sql: """
                CREATE TABLE offline_models (feature TEXT PRIMARY KEY, version INTEGER NOT NULL);
                ALTER TABLE outbox ADD COLUMN damage TEXT;
                """),
        // Resources the user keeps on the device whatever a `StorageBudget` says, in any storage
        // (`OfflineCollection.pin(id:)`).
        Migration(
            version: 12,
            sql: """
                CREATE TABLE offline_pins (
                    collection TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (collection, id)) WITHOUT ROWID
                """),
        // The name of a change's request in a `TransferSpool` while a transfer service sends it
        // (`Outbox.handOff(with:preparing:)`); `NULL` for a change the outbox sends itself.
        Migration(version: 13, sql: "ALTER TABLE outbox ADD COLUMN handed_off TEXT"),
    ]
}
