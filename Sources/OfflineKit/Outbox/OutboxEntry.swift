public import Foundation
public import Services

/// A change made on this device that the API has not confirmed yet: one request, kept in the app's
/// database until the API accepts it or the user discards it.
public struct OutboxEntry: Sendable, Equatable {
    /// Where an entry stands. Entries that are not ``pending`` are *held*: neither they nor the
    /// later entries of the same resource are sent until the user retries or discards them;
    /// other resources' entries still go.
    ///
    /// More states may be added: a `switch` over it needs a `default` (or `@unknown default`).
    public enum State: Sendable, Equatable {
        /// Waiting to be sent.
        case pending
        /// The API refused it (a 4xx); `reason` is what it said. It stays until it is retried or
        /// discarded.
        case refused(reason: String)
        /// The API failed it too often (a 5xx, or anything that does not mean "offline", five times
        /// in a row with ``Outbox/standardRetry``); `lastError` is what the last attempt got.
        /// It stays until it is retried or discarded.
        case stuck(lastError: String)
        /// Another writer changed the resource since the change was made (the API answered `412
        /// Precondition Failed` to its `If-Match`), and the two could not be merged field by
        /// field; `theirs` is the API's copy, or `nil` when the API deleted the resource or did not
        /// send its copy (`deletedOnServer` says which). It stays until it is resolved
        /// (``Outbox/resolve(localID:keeping:recreatingAt:applyingTheirs:)``) or discarded.
        case conflicted(theirs: Data?, deletedOnServer: Bool)
        /// Its row in the database cannot be read (edited by hand, damaged); `reason` names the
        /// file and the entry. It is never sent and can only be discarded. Of a damaged entry only
        /// ``sequence``, ``localID`` and ``state`` are meaningful.
        case damaged(reason: String)
    }

    /// Its place in the queue: entries are sent in this order.
    public let sequence: Int64
    /// The identifier of the changed resource on this device (the API's own once it gave one).
    public let localID: String
    /// The HTTP method.
    public let method: HTTPMethod
    /// The resource, relative to the API's base URL, such as `orders/abc123`.
    public internal(set) var path: String
    /// The JSON body, or `nil`.
    public internal(set) var body: Data?
    /// Sent as the `Idempotency-Key` header, the same on every attempt, so that the API can tell
    /// a repeat (after a lost answer or a crash) from a new request.
    public let idempotencyKey: String
    /// Waiting, refused, stuck or damaged.
    public let state: State
    /// When the change was made.
    public let createdAt: Date
    /// Not sent again before this time, when a failed attempt set one (the API's `Retry-After`,
    /// or the backoff after a failure); `nil` when it may go at once.
    public let notBefore: Date?
    /// How many attempts in a row failed in a way that did not mean "offline".
    public let failures: Int
    /// The version of the resource the change was made from (the API's `version`), sent as
    /// `If-Match`; `nil` for a create, or a resource without versions (then nothing is
    /// conditional, and another writer's change may be overwritten).
    public let baseVersion: String?
    /// The API's copy the change was made from, as JSON: the base of a three-way merge when the
    /// API's copy changed meanwhile. `nil` when not known.
    public let base: Data?
    /// The account the change was made by (`Credentials/account`), which alone may send it;
    /// `nil` for a change made with no sign-in.
    public internal(set) var account: String?
    /// Whether the change had been sent (or may have been) when it was read: its answer may have
    /// been lost, and a listing since may hold what it made.
    var attemptedBefore = false
    /// The name of its request in a `TransferSpool` while a transfer service sends it; `nil` when
    /// the outbox sends it itself.
    var transfer: String?

    /// Makes an entry; ``Outbox`` makes them as it reads its table.
    ///
    /// - Parameters:
    ///   - sequence: Its place in the queue.
    ///   - localID: The changed resource's identifier on this device.
    ///   - method: The HTTP method.
    ///   - path: The resource, relative to the API's base URL.
    ///   - body: The JSON body, or `nil`.
    ///   - idempotencyKey: The `Idempotency-Key` header.
    ///   - state: Waiting, refused, stuck or damaged.
    ///   - createdAt: When the change was made.
    ///   - notBefore: Not sent again before this time; `nil` by default.
    ///   - failures: How many attempts in a row failed; 0 by default.
    ///   - baseVersion: The version the change was made from; `nil` by default.
    ///   - base: The API's copy the change was made from; `nil` by default.
    public init(
        sequence: Int64, localID: String, method: HTTPMethod, path: String, body: Data?,
        idempotencyKey: String, state: State, createdAt: Date, notBefore: Date? = nil, failures: Int = 0,
        baseVersion: String? = nil, base: Data? = nil
    ) {
        self.sequence = sequence
        self.localID = localID
        self.method = method
        self.path = path
        self.body = body
        self.idempotencyKey = idempotencyKey
        self.state = state
        self.createdAt = createdAt
        self.notBefore = notBefore
        self.failures = failures
        self.baseVersion = baseVersion
        self.base = base
    }

    /// The same entry, refused with `reason`.
    ///
    /// - Parameter reason: What the API said.
    /// - Returns: The refused entry.
    public func refused(_ reason: String) -> OutboxEntry {
        var refused = OutboxEntry(
            sequence: sequence, localID: localID, method: method, path: path, body: body,
            idempotencyKey: idempotencyKey, state: .refused(reason: reason), createdAt: createdAt,
            notBefore: notBefore, failures: failures, baseVersion: baseVersion, base: base)
        refused.account = account
        return refused
    }

    /// Whether the API refused it.
    public var isRefused: Bool {
        if case .refused = state { return true }
        return false
    }

    /// Whether it is held (refused, stuck, conflicted or damaged): it and the later changes of its
    /// resource wait for the user, who may retry, resolve or discard it.
    public var isHeld: Bool {
        state != .pending
    }

    /// Whether another writer's change stands against it.
    public var isConflicted: Bool {
        if case .conflicted = state { return true }
        return false
    }

    /// Whether its row could not be read.
    var isDamaged: Bool {
        if case .damaged = state { return true }
        return false
    }
}
