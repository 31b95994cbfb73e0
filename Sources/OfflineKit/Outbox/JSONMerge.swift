import Foundation
import Services

/// A three-way merge of two JSON objects changed from one base, field by field: what the outbox
/// does when the API's copy changed since a change was made (a `412 Precondition Failed`).
///
/// | a top-level field | the merge takes |
/// | --- | --- |
/// | changed on neither side, or on the API's only | the API's |
/// | changed on this device only | this device's |
/// | changed on both sides, to the same value | that value |
/// | changed on both sides, to different values | nothing: the merge fails, and the change is a conflict |
///
/// Fields are compared as JSON (nested objects and arrays as wholes); `version` is always the
/// API's. A body that is not a JSON object cannot be merged.
enum JSONMerge {
    /// The merge of `mine` and `theirs`, both changed from `base`, or `nil` when a field was
    /// changed on both sides to different values (``conflictingFields(base:mine:theirs:)``).
    static func threeWay(base: Data, mine: Data, theirs: Data) -> Data? {
        guard let base = object(base), let mine = object(mine), var merged = object(theirs),
            conflicts(base, mine, merged).isEmpty
        else { return nil }
        for key in Set(base.keys).union(mine.keys) where key != "version" && !same(mine[key], base[key]) {
            merged[key] = mine[key]
        }
        return try? JSONSerialization.data(withJSONObject: merged, options: [.sortedKeys])
    }

    /// `body` with each top-level field naming the resource's own identifier `id` (its `id`
    /// field, whatever its key) set to `replacement`, or left out when `replacement` is `nil`:
    /// a create's body never names the resource by a local identifier, and a later change names
    /// it by the API's. `body` as it came when it is not a JSON object or no field names `id`.
    static func naming(_ body: Data, _ id: String, as replacement: String?) -> Data {
        guard var object = object(body) else { return body }
        let fields = object.filter { $0.value as? String == id }.keys
        guard !fields.isEmpty else { return body }
        for field in fields { object[field] = replacement }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? body
    }

    /// `change` moved onto `theirs`: `theirs` with the top-level fields that `change` set
    /// differently from `previous` (the body it was made on top of), so that a later edit keeps
    /// what it changed and nothing else of the body it was made from; `version` is `theirs`'s.
    /// `nil` when a body is not a JSON object.
    static func rebase(_ change: Data, madeOn previous: Data, onto theirs: Data) -> Data? {
        guard let change = object(change), let previous = object(previous), var rebased = object(theirs)
        else { return nil }
        for key in Set(change.keys).union(previous.keys)
        where key != "version" && !same(change[key], previous[key]) {
            rebased[key] = change[key]
        }
        return try? JSONSerialization.data(withJSONObject: rebased, options: [.sortedKeys])
    }

    /// Whether two JSON objects hold the same fields with the same values (`version` aside, which
    /// is always the API's), whatever their key order.
    static func isSame(_ lhs: Data, _ rhs: Data) -> Bool {
        guard var lhs = object(lhs), var rhs = object(rhs) else { return lhs == rhs }
        lhs["version"] = nil
        rhs["version"] = nil
        return same(lhs, rhs)
    }

    /// The fields changed on both sides to different values, sorted; empty when the two merge.
    /// `nil` when a body is not a JSON object.
    static func conflictingFields(base: Data, mine: Data, theirs: Data) -> [String]? {
        guard let base = object(base), let mine = object(mine), let theirs = object(theirs) else {
            return nil
        }
        return conflicts(base, mine, theirs)
    }

    /// The fields whose values differ between two JSON objects (`id` and `version` aside), sorted;
    /// empty when either is not a JSON object.
    static func differingFields(_ lhs: Data, _ rhs: Data) -> [String] {
        guard let lhs = object(lhs), let rhs = object(rhs) else { return [] }
        return Set(lhs.keys).union(rhs.keys).filter { key in
            key != "id" && key != "version" && !same(lhs[key], rhs[key])
        }
        .sorted()
    }

    /// The `version` field of a JSON object, as text (a number is written out), or `nil`.
    static func version(of data: Data) -> String? {
        switch object(data)?["version"] {
        case let text as String: text
        case let number as NSNumber: number.stringValue
        default: nil
        }
    }

    private static func conflicts(_ base: [String: Any], _ mine: [String: Any], _ theirs: [String: Any])
        -> [String]
    {
        Set(base.keys).union(mine.keys).union(theirs.keys).filter { key in
            key != "version" && !same(mine[key], base[key]) && !same(theirs[key], base[key])
                && !same(mine[key], theirs[key])
        }
        .sorted()
    }

    /// Whether two JSON objects hold the same fields, `version` aside: the same resource, as two
    /// answers of the API give it. `false` when either is not a JSON object.
    static func sameFields(_ lhs: Data, _ rhs: Data) -> Bool {
        guard let lhs = object(lhs), let rhs = object(rhs) else { return false }
        return Set(lhs.keys).union(rhs.keys).allSatisfy { $0 == "version" || same(lhs[$0], rhs[$0]) }
    }

    private static func object(_ data: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// Whether two fields hold the same JSON (both absent counts as the same).
    private static func same(_ lhs: Any?, _ rhs: Any?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return true
        case (let lhs?, let rhs?): return canonical(lhs) == canonical(rhs)
        default: return false
        }
    }

    private static func canonical(_ value: Any) -> Data? {
        try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys])
    }
}
