/// One step of a database schema, applied once, in version order.
///
/// The statements take no values (they create and alter tables); rows are written with bound
/// parameters through ``Connection``. A step that must compute what it writes (turning rows an
/// earlier version kept into what this one keeps) runs Swift instead: ``init(version:run:)``.
public struct Migration: Sendable {
    /// The schema version this step brings the database to; versions start at 1.
    public let version: Int
    /// The SQL the step runs, in one transaction with the version change; empty for a step that
    /// runs Swift.
    public let sql: String
    /// The Swift the step runs instead of ``sql``, if any.
    let run: (@Sendable (Connection) throws -> Void)?

    /// Makes a migration step.
    ///
    /// - Parameters:
    ///   - version: The schema version this step brings the database to.
    ///   - sql: Statements separated by semicolons.
    public init(version: Int, sql: String) {
        self.version = version
        self.sql = sql
        run = nil
    }

    /// Makes a migration step that runs `run`, once, in the transaction that records `version`:
    /// if it throws, the file stays at the version before.
    ///
    /// - Parameters:
    ///   - version: The schema version this step brings the database to.
    ///   - run: Reads and writes through the connection of the migration's transaction.
    public init(version: Int, run: @escaping @Sendable (Connection) throws -> Void) {
        self.version = version
        sql = ""
        self.run = run
    }
}
