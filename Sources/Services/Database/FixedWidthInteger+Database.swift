extension FixedWidthInteger {
    /// An integer read from the database, checked: SQLite stores 64 bits, and `Int` has 32 on
    /// watchOS, where `Int(value)` on a larger number would stop the app.
    ///
    /// - Parameters:
    ///   - value: The value SQLite gave.
    ///   - column: The column it came from, for the error.
    /// - Throws: ``DatabaseError`` (`typeMismatch`) when `value` does not fit.
    package init(database value: Int64, column: String) throws {
        guard let narrowed = Self(exactly: value) else {
            throw DatabaseError(
                kind: .typeMismatch,
                message:
                    "column \(column) holds \(value), which does not fit in a \(Self.bitWidth)-bit integer")
        }
        self = narrowed
    }
}
