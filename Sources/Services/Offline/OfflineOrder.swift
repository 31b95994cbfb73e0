/// The order a collection's pages come in: a top-level field of the resource's JSON, ties broken
/// by identifier; resources without the field come first in ascending order, last in descending.
/// Values compare as SQLite compares them: numbers before text, text by its bytes.
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

    /// Whether ``field`` can name a column of an index: letters, digits and `_` only.
    var isValid: Bool {
        guard let first = field.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return field.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
    }
}
