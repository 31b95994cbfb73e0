import Foundation
import Services

/// What an ``Outbox`` holds, as a screen shows it: each changed resource's ``SyncState`` and how
/// many changes wait, were refused, are stuck or are damaged.
public struct OutboxStatus: Sendable, Equatable {
    /// The state of each resource with a change in the outbox, by local identifier; a resource
    /// not listed is ``SyncState/synced``.
    ///
    /// Keyed by `String`, which compares canonically: for identifiers that differ only in Unicode
    /// normalisation ask ``state(of:)``, which compares bytes.
    public var states: [String: SyncState] {
        Dictionary(byID.map { ($0.key.id, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
    /// The state of each resource with a change, by its identifier as bytes.
    private let byID: [IdentifierKey: SyncState]
    /// How many changes wait to be sent (held ones not counted).
    public let waiting: Int
    /// How many changes the API refused.
    public let refused: Int
    /// How many changes the API failed too often.
    public let stuck: Int
    /// How many changes cannot be read.
    public let damaged: Int
    /// How many changes stand against another writer's (``SyncState/conflicted(theirs:deletedOnServer:)``).
    public let conflicted: Int

    /// The status of `entries`: a resource takes the state of its first held change (damaged,
    /// refused or stuck, with its reason), else pending.
    ///
    /// - Parameter entries: The outbox's entries.
    public init(entries: [OutboxEntry]) {
        self.init(entries: entries, changedHere: [])
    }

    /// The status of `entries`, and of the resources `changedHere` (their rows say so) that have
    /// no entry: their change is missing from the outbox (a damaged or edited file), so they are
    /// damaged, never shown as synced.
    init(entries: [OutboxEntry], changedHere: [String]) {
        let entries = entries + Self.missing(changedHere, from: entries)
        var states: [IdentifierKey: SyncState] = [:]
        for entry in entries {
            let key = IdentifierKey(entry.localID)
            if states[key] == nil || states[key] == .pending { states[key] = Self.state(of: entry) }
        }
        byID = states
        refused = entries.filter(\.isRefused).count
        stuck = entries.filter { if case .stuck = $0.state { true } else { false } }.count
        damaged = entries.filter(\.isDamaged).count
        conflicted = entries.filter(\.isConflicted).count
        waiting = entries.count - refused - stuck - damaged - conflicted
    }

    /// Nothing waits and nothing is held.
    public static let empty = OutboxStatus(entries: [])

    /// How many changes wait for the user (refused, stuck, conflicted or damaged).
    public var held: Int { refused + stuck + damaged + conflicted }

    /// The state of one resource.
    ///
    /// - Parameter localID: Its identifier.
    /// - Returns: Its state; ``SyncState/synced`` when it has no change in the outbox.
    public func state(of localID: String) -> SyncState {
        byID[IdentifierKey(localID)] ?? .synced
    }

    /// A damaged entry for each resource of `changedHere` without one in `entries`.
    static func missing(_ changedHere: [String], from entries: [OutboxEntry]) -> [OutboxEntry] {
        let recorded = Set(entries.map { IdentifierKey($0.localID) })
        return changedHere.filter { !recorded.contains(IdentifierKey($0)) }.map { id in
            OutboxEntry(
                sequence: 0, localID: id, method: .put, path: "", body: nil, idempotencyKey: "",
                state: .damaged(
                    reason:
                        "changed on this device, but the change is missing from the outbox; discard it to show the API's copy"
                ),
                createdAt: Date(timeIntervalSince1970: 0))
        }
    }

    private static func state(of entry: OutboxEntry) -> SyncState {
        switch entry.state {
        case .pending: .pending
        case .refused(let reason): .refused(reason: reason)
        case .stuck(let lastError): .stuck(lastError: lastError)
        case .damaged(let reason): .damaged(reason: reason)
        case .conflicted(let theirs, let deleted): .conflicted(theirs: theirs, deletedOnServer: deleted)
        }
    }
}
