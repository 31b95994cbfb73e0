/// Which resources a query keeps: conditions on top-level fields of the resource's JSON (named as
/// the API names them), combined with `&&` and `||`. A field a resource does not have, or holds
/// `null` in, matches only ``isNull(_:)``.
///
/// ```swift
/// let open = OfflineFilter.equals("projectId", project.id) && .isNull("doneAt")
/// let soon = OfflineFilter.atLeast("due", .date(now)) && .lessThan("due", .date(nextWeek))
/// ```
///
/// A condition on a field that names another resource follows it: made with the local id of a
/// resource created here, it goes on matching once the API's id replaced that id (and the other
/// way round), so a screen opened offline shows the same rows after a sync.
public indirect enum OfflineFilter: Sendable, Hashable {
    /// The field holds `value`.
    case equals(String, OfflineValue)
    /// The field holds one of `values`.
    case isIn(String, [OfflineValue])
    /// The field's value is smaller than `value` (of the same type).
    case lessThan(String, OfflineValue)
    /// The field's value is smaller than or equal to `value`.
    case atMost(String, OfflineValue)
    /// The field's value is greater than `value`.
    case greaterThan(String, OfflineValue)
    /// The field's value is greater than or equal to `value`.
    case atLeast(String, OfflineValue)
    /// The field holds text that starts with `prefix`.
    case hasPrefix(String, String)
    /// The field is missing or `null`.
    case isNull(String)
    /// Every filter holds.
    case all([OfflineFilter])
    /// At least one filter holds.
    case any([OfflineFilter])

    /// Both hold.
    ///
    /// - Parameters:
    ///   - lhs: One filter.
    ///   - rhs: The other.
    /// - Returns: The filter that keeps what both keep.
    public static func && (lhs: OfflineFilter, rhs: OfflineFilter) -> OfflineFilter {
        .all(lhs.conjuncts + rhs.conjuncts)
    }

    /// Either holds.
    ///
    /// - Parameters:
    ///   - lhs: One filter.
    ///   - rhs: The other.
    /// - Returns: The filter that keeps what either keeps.
    public static func || (lhs: OfflineFilter, rhs: OfflineFilter) -> OfflineFilter {
        .any(lhs.disjuncts + rhs.disjuncts)
    }

    private var conjuncts: [OfflineFilter] {
        if case .all(let filters) = self { return filters }
        return [self]
    }

    private var disjuncts: [OfflineFilter] {
        if case .any(let filters) = self { return filters }
        return [self]
    }

    /// The fields every resource the filter keeps holds a value in (neither missing nor `null`),
    /// so that one resource kept shows them to be fields of the model: ``isNull(_:)`` shows
    /// nothing (a misspelt field is missing from every resource), `||` only what each side shows.
    var fieldsEveryMatchHolds: Set<String> {
        switch self {
        case .isNull:
            []
        case .equals(let field, _), .isIn(let field, _), .lessThan(let field, _), .atMost(let field, _),
            .greaterThan(let field, _), .atLeast(let field, _), .hasPrefix(let field, _):
            [field]
        case .all(let filters):
            filters.reduce(into: []) { $0.formUnion($1.fieldsEveryMatchHolds) }
        case .any(let filters):
            filters.dropFirst().reduce(filters.first?.fieldsEveryMatchHolds ?? []) {
                $0.intersection($1.fieldsEveryMatchHolds)
            }
        }
    }

    /// Every field the filter names.
    var fields: [String] {
        switch self {
        case .equals(let field, _), .isIn(let field, _), .lessThan(let field, _), .atMost(let field, _),
            .greaterThan(let field, _), .atLeast(let field, _), .hasPrefix(let field, _), .isNull(let field):
            [field]
        case .all(let filters), .any(let filters):
            filters.flatMap(\.fields)
        }
    }
}
