public import Foundation

/// A value stored in or read from a SQLite column, bound as a parameter, never spliced into SQL.
///
/// Closed: SQLite stores these five kinds of value and no other.
public enum SQLValue: Sendable, Equatable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes.
    case blob(Data)
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByNilLiteral
{
    /// Text.
    ///
    /// - Parameter value: The text.
    public init(stringLiteral value: String) {
        self = .text(value)
    }

    /// An integer.
    ///
    /// - Parameter value: The integer.
    public init(integerLiteral value: Int64) {
        self = .integer(value)
    }

    /// A double.
    ///
    /// - Parameter value: The double.
    public init(floatLiteral value: Double) {
        self = .real(value)
    }

    /// `NULL`.
    ///
    /// - Parameter nilLiteral: Nothing.
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension SQLValue {
    /// Text, or `NULL` for `nil`.
    ///
    /// - Parameter value: The text.
    public init(_ value: String?) {
        self = value.map(SQLValue.text) ?? .null
    }

    /// An integer, or `NULL` for `nil`.
    ///
    /// - Parameter value: The integer.
    public init(_ value: Int?) {
        self = value.map { .integer(Int64($0)) } ?? .null
    }

    /// A double, or `NULL` for `nil`.
    ///
    /// - Parameter value: The double.
    public init(_ value: Double?) {
        self = value.map(SQLValue.real) ?? .null
    }
}
