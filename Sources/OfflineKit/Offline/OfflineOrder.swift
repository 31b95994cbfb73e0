import Services

/// The order a collection's pages come in: a top-level field of the resource's JSON, ties broken
/// by identifier; resources without the field come first in ascending order, last in descending.
/// Values compare as SQLite compares them: numbers before text, text by its bytes, except dates
/// (ISO 8601 in UTC, as `APIClient` writes them), which compare in time order, fractions of a
/// second included.
///
/// ```swift
/// notes.page(limit: 50, order: .descending("updatedAt"))
/// ```
public struct OfflineOrder: Sendable, Hashable {
    /// The field, as the resource's JSON names it: letters, digits and `_`, not starting with a
    /// digit.
    public let field: String
    /// Whether the greatest value comes first.
    public let descending: Bool

    /// Smallest first.
    ///
    /// - Parameter field: The field's name in the resource's JSON.
    /// - Returns: The order.
    public static func ascending(_ field: String) -> OfflineOrder {
        OfflineOrder(field: field, descending: false)
    }

    /// Greatest first.
    ///
    /// - Parameter field: The field's name in the resource's JSON.
    /// - Returns: The order.
    public static func descending(_ field: String) -> OfflineOrder {
        OfflineOrder(field: field, descending: true)
    }

    /// A date as `APIClient` writes it (`2026-11-27T10:00:00.55Z`), whose text sorts in time order
    /// once its `Z` is dropped: a date is written with as many fractional digits as it needs, so
    /// with the `Z`, `…:00.55Z` sorts before `…:00.5Z`, and that before `…:00Z`.
    static let datePattern = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z"

    /// `text` as it is sorted: a date without its `Z`, anything else as it is. The SQL of
    /// ``sortKey(_:)`` says the same for the JSON storage's index.
    static func sortKey(of text: String) -> String {
        guard text.hasSuffix("Z"), text.utf8.count >= 20, isDate(text) else { return text }
        return String(text.dropLast())
    }

    /// `expression` as it is sorted, in SQL: ``sortKey(of:)``'s rule.
    static func sortKey(_ expression: String) -> String {
        "CASE WHEN \(expression) GLOB '\(datePattern)' THEN substr(\(expression), 1, length(\(expression)) - 1)"
            + " ELSE \(expression) END"
    }

    /// Whether `text` matches ``datePattern``: four digits, `-`, two, `-`, two, `T`, two, `:`, two,
    /// `:`, two, then anything, and `Z` last.
    private static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let shape = Array("dddd-dd-ddTdd:dd:dd".utf8)
        guard bytes.count > shape.count, bytes.last == UInt8(ascii: "Z") else { return false }
        return zip(shape, bytes).allSatisfy { expected, byte in
            expected == UInt8(ascii: "d")
                ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == expected
        }
    }

    /// Whether ``field`` can name a column of an index: letters, digits and `_` only.
    var isValid: Bool {
        guard let first = field.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return field.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
    }
}
