/// An identifier as a dictionary key or set member that compares as bytes (its UTF-8), as the API
/// and SQLite compare it.
///
/// Swift's `String ==` compares canonically: `café` written with `é` and with `e` and a combining
/// accent are equal strings, though they are two identifiers to the API and two rows to SQLite.
/// Keyed by `String`, two such resources would become one on this device (one listed, the other's
/// items attached to it). Wherever an identifier is a key, key by this instead.
///
/// ```swift
/// var byID: [IdentifierKey: Order] = [:]
/// byID[IdentifierKey(order.id ?? "")] = order
/// ```
public struct IdentifierKey: Hashable, Sendable, CustomStringConvertible {
    /// The identifier.
    public let id: String

    /// Wraps `id`.
    public init(_ id: String) {
        self.id = id
    }

    /// Whether the two are the same bytes.
    public static func == (lhs: IdentifierKey, rhs: IdentifierKey) -> Bool {
        lhs.id.utf8.elementsEqual(rhs.id.utf8)
    }

    /// Hashes the bytes, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        for byte in id.utf8 { hasher.combine(byte) }
    }

    /// The identifier itself.
    public var description: String { id }
}

extension String {
    /// Whether this and `other` are the same bytes: the comparison of identifiers (see
    /// ``IdentifierKey``), where `==` would call two normalisations of one text equal.
    public func isSameIdentifier(as other: String) -> Bool {
        utf8.elementsEqual(other.utf8)
    }
}
