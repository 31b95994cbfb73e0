/// One step of a database schema, applied once, in version order.
///
/// The statements take no values (they create and alter tables); rows are written with bound
/// parameters through ``Connection``.
public struct Migration: Sendable {
    /// The schema version this step brings the database to; versions start at 1.
    public let version: Int
    /// The SQL the step runs, in one transaction with the version change.
    public let sql: String

    /// Makes a migration step.
    ///
    /// - Parameters:
    ///   - version: The schema version this step brings the database to.
    ///   - sql: Statements separated by semicolons.
    public init(version: Int, sql: String) {
        self.version = version
        self.sql = sql
    }
}
