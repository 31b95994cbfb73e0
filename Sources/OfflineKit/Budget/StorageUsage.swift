import Foundation

/// What the copy of the API's resources takes on the device, against a ``StorageBudget``: read
/// by ``StorageBudget/usage()``, and left by each eviction pass (``StorageBudget/enforce()``).
///
/// Bytes are the resources' JSON and identifiers as stored: what grows with the copy, without
/// SQLite's pages and indexes (a few tens of bytes a row more, the same whatever the budget), and
/// the sizes of the kept files when the budget includes them.
public struct StorageUsage: Sendable, Equatable, Codable {
    /// The bytes of the copy's rows.
    public var bytes: Int
    /// Of those, the bytes no eviction may take: rows changed here or named by a change that waits
    /// (a create, an edit, a delete, a conflict, a child's parent), and pinned rows.
    public var keptBytes: Int
    /// The budget, in bytes.
    public var budget: Int
    /// The rows and files the pass that left this usage let go of (0 for ``StorageBudget/usage()``).
    public var evicted: Int
    /// Of ``bytes``, what the kept files take (``StorageBudget/including(_:)``).
    public var fileBytes: Int = 0

    /// Whether the copy fits in the budget.
    public var isWithinBudget: Bool { bytes <= budget }

    /// Why the budget is not met, in words a user reads ("18.0 MB wait to be sent or are kept
    /// offline; the budget is 10.0 MB"); `nil` within the budget.
    public var overBudget: String? {
        guard !isWithinBudget else { return nil }
        return
            "\(Self.text(keptBytes)) wait to be sent or are kept offline; the budget is \(Self.text(budget))"
    }

    /// `bytes` as a user reads it: bytes up to a kilobyte, then kB and MB with one decimal (1,000s).
    public static func text(_ bytes: Int) -> String {
        switch bytes {
        case 1: "1 byte"
        case ..<1_000: "\(bytes) bytes"
        // Below what rounds to 1000.0 kB: that is 1.0 MB.
        case ..<999_950: String(format: "%.1f kB", Double(bytes) / 1_000)
        default: String(format: "%.1f MB", Double(bytes) / 1_000_000)
        }
    }
}
