public import Foundation

/// What one feature's outbox holds, read at once, for a screen or a support bundle that says why a
/// change has not arrived: each waiting change with where it stands, the map of the API's
/// identifiers, the sync that holds the claim, whose data it is, the model version, and what the
/// changes, the copy and the files take.
///
/// `Sendable` and `Codable`: an app can hand it to another thread, show it, or encode it as JSON
/// for support. It holds no token and no password, and no body unless the app asks for bodies
/// (``Outbox/diagnostics(includingBodies:)``): a change is described by its kind, identifiers,
/// path and state, not by what it carries.
public struct OutboxDiagnostics: Sendable, Equatable, Codable {
    /// One waiting change.
    public struct Change: Sendable, Equatable, Codable {
        /// Its place in the queue.
        public let sequence: Int64
        /// `create`, `update` or `delete` (or the HTTP method of another request, such as an upload).
        public let kind: String
        /// The identifier this device gave the resource (the API's, for one it never created).
        public let localID: String
        /// The API's identifier of a resource created here, once the API gave it.
        public let apiID: String?
        /// Where it goes, relative to the API's base URL.
        public let path: String
        /// `waiting`, `refused`, `stuck`, `conflict` or `damaged`.
        public let state: String
        /// The API's reason (refused), the last error (stuck) or the damage, when there is one.
        public let reason: String?
        /// Failed attempts in a row (not counting "offline").
        public let failures: Int
        /// Not sent before this time (backoff or `Retry-After`), when set.
        public let notBefore: Date?
        /// The account that made it, when one was signed in.
        public let account: String?
        /// When it was made.
        public let createdAt: Date
        /// Whether it was sent and its answer not recorded yet: on its way while a sync holds the
        /// claim, or its answer lost (then sent again under its key, answered once).
        public let sent: Bool
        /// The resource it waits for, as `collection/id`: a parent it names whose create the API
        /// has not answered (``OfflineCollection/diagnostics()`` of a collection with references).
        public internal(set) var waitingFor: String?
        /// The name of its request in the `TransferSpool` while a transfer service sends it
        /// (``Outbox/handOff(with:)``); `nil` when the outbox sends it itself.
        public internal(set) var handedOff: String?
        /// What it carries, as JSON: only from a snapshot asked with bodies
        /// (``Outbox/diagnostics(includingBodies:)``); `nil` otherwise.
        public internal(set) var body: String?
    }

    /// The sync that holds the claim to send this feature's changes.
    public struct Claim: Sendable, Equatable, Codable {
        /// Its process number.
        public let pid: Int64
        /// The machine it runs on.
        public let host: String
        /// When its lease lapses unless it moves on.
        public let expires: Date
    }

    /// The copy of the API's resources a collection keeps, and how it was last brought up to date.
    public struct Copy: Sendable, Equatable, Codable {
        /// Its rows (the API's and those changed here).
        public let rows: Int
        /// What its rows take, in bytes, as a ``StorageBudget`` counts them.
        public let bytes: Int
        /// When it was last listed, confirmed or brought up to date from the feed; `nil` when never.
        public let refreshedAt: Date?
        /// The change feed's token it is at (the next refresh asks what changed after it), when the
        /// API has a feed: a position in the feed, not a credential.
        public let feedToken: String?
        /// Listings saved whole.
        public let listings: Int
        /// Listings the API confirmed with `304 Not Modified` (nothing downloaded again).
        public let notModified: Int
        /// Batches of the change feed applied.
        public let feedUpdates: Int
    }

    /// The files an attachments' outbox keeps on this device.
    public struct Files: Sendable, Equatable, Codable {
        /// How many.
        public let count: Int
        /// What they take, in bytes.
        public let bytes: Int
        /// Of those, the bytes of files not uploaded yet: never let go of.
        public let waitingBytes: Int
    }

    /// The feature (the collection's name, such as `orders`).
    public let feature: String
    /// The waiting changes, in the order they are sent.
    public internal(set) var changes: [Change]
    /// How many of this device's identifiers the API replaced with its own, kept.
    public let identifiers: Int
    /// The sync sending now, in this process or another; `nil` when none is.
    public let claim: Claim?
    /// The account whose data the collection holds, when one does.
    public let owner: String?
    /// The version of the model its stored JSON is at (1 when it never changed).
    public let modelVersion: Int
    /// What the waiting changes take, in bytes (their bodies and paths).
    public let outboxBytes: Int
    /// The collection's copy (``OfflineCollection/diagnostics()``); `nil` from the outbox alone.
    public internal(set) var copy: Copy?
    /// The files kept (``OfflineAttachments/diagnostics()``); `nil` for a collection of records.
    public internal(set) var files: Files?
}
