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
        lhs.id.isSameIdentifier(as: rhs.id)
    }

    /// Hashes the bytes, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        // The bytes at once (`withUTF8` makes a bridged string contiguous first), as `==` compares.
        var id = id
        id.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The identifier itself.
    public var description: String { id }
}

extension String {
    /// Whether this and `other` are the same bytes: the comparison of identifiers (see
    /// ``IdentifierKey``), where `==` would call two normalisations of one text equal.
    public func isSameIdentifier(as other: String) -> Bool {
        utf8.count == other.utf8.count && utf8.elementsEqual(other.utf8)
    }
}
