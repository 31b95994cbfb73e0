import Foundation
import Services

/// One step of a collection's model, from one version to the next: what an app update changed in
/// its resource's shape, applied to the JSON object each stored resource and each queued change
/// holds (``OfflineCollection/model(version:steps:)``).
///
/// The common changes take one line; anything else is a step of your own over the JSON object, or
/// over the old and new types:
///
/// ```swift
/// let notes = OfflineCollection<Note>(database: database, collection: "notes", client: api)
///     .model(version: 3, steps: [
///         .renaming("text", to: "body"),                   // 1 -> 2
///         .adding("pinned", default: false),               // 2 -> 3
///     ])
/// ```
///
/// A step that throws, or meets a value it cannot read, leaves that one resource or change
/// damaged with the reason, never sent; the others go on.
public struct OfflineModelStep: Sendable {
    let apply: @Sendable (inout [String: Any]) throws -> Void

    /// A step over the JSON object of one resource (as `JSONSerialization` reads it).
    ///
    /// - Parameter apply: Changes the object to the next version's shape; throws when it cannot.
    public init(_ apply: @escaping @Sendable (_ object: inout [String: Any]) throws -> Void) {
        self.apply = apply
    }

    /// Several changes made in one version, as one step, applied in the order given: a version
    /// that renamed one field and added another is one step, since a collection has exactly one
    /// step a version.
    ///
    /// ```swift
    /// .model(version: 2, steps: [.combining([.renaming("title", to: "name"), .adding("priority", default: 0)])])
    /// ```
    ///
    /// - Parameter steps: The changes, in order.
    /// - Returns: The step.
    public static func combining(_ steps: [OfflineModelStep]) -> OfflineModelStep {
        OfflineModelStep { object in
            for step in steps { try step.apply(&object) }
        }
    }

    /// A field renamed; a resource without it is left as it is.
    ///
    /// - Parameters:
    ///   - field: Its name in the older version.
    ///   - name: Its name in the newer.
    /// - Returns: The step.
    public static func renaming(_ field: String, to name: String) -> OfflineModelStep {
        OfflineModelStep { object in
            guard let value = object.removeValue(forKey: field) else { return }
            object[name] = value
        }
    }

    /// A new field, set to `value` where a resource has none.
    ///
    /// - Parameters:
    ///   - field: The field's name.
    ///   - value: Its value, encoded as the API's client encodes (dates included).
    /// - Returns: The step.
    public static func adding(_ field: String, default value: some Encodable & Sendable) -> OfflineModelStep {
        OfflineModelStep { object in
            guard object[field] == nil else { return }
            object[field] = try JSONSerialization.jsonObject(
                with: try APIClient.encode(value), options: .fragmentsAllowed)
        }
    }

    /// A field the newer version no longer has.
    ///
    /// - Parameter field: Its name.
    /// - Returns: The step.
    public static func dropping(_ field: String) -> OfflineModelStep {
        OfflineModelStep { object in object[field] = nil }
    }

    /// A text field split in two: `split` gives the two new fields' values; the old field goes.
    ///
    /// - Parameters:
    ///   - field: The older text field.
    ///   - first: The first new field.
    ///   - second: The second new field.
    ///   - split: The old value, to the two new ones.
    /// - Returns: The step.
    public static func splitting(
        _ field: String, into first: String, _ second: String,
        by split: @escaping @Sendable (String) -> (String, String)
    ) -> OfflineModelStep {
        OfflineModelStep { object in
            guard let value = object.removeValue(forKey: field) else { return }
            guard let text = value as? String else {
                throw OfflineModelError.unreadable("\(field) is not text")
            }
            (object[first], object[second]) = split(text)
        }
    }

    /// A step between typed values: the stored JSON decoded as `Old`, converted, encoded as `New`.
    ///
    /// - Parameters:
    ///   - old: The type the older version stored.
    ///   - new: The type the newer version stores.
    ///   - convert: One to the other; throws when it cannot.
    /// - Returns: The step.
    public static func converting<Old: Decodable & SendableMetatype, New: Encodable & SendableMetatype>(
        _ old: Old.Type, to new: New.Type, _ convert: @escaping @Sendable (Old) throws -> New
    ) -> OfflineModelStep {
        OfflineModelStep { object in
            let value = try APIClient.decode(old, from: try JSONSerialization.data(withJSONObject: object))
            guard
                let converted = try JSONSerialization.jsonObject(with: try APIClient.encode(convert(value)))
                    as? [String: Any]
            else { throw OfflineModelError.unreadable("\(New.self) does not encode as a JSON object") }
            object = converted
        }
    }
}
