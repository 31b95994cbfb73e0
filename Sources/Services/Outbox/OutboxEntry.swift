public import Foundation

/// A change made on this device that the API has not confirmed yet: one request, kept in the app's
/// database until the API accepts it or the user discards it.
public struct OutboxEntry: Sendable, Equatable {
    /// Where an entry stands.
    public enum State: Sendable, Equatable {
        /// Waiting to be sent.
        case pending
        /// The API refused it (a 4xx); `reason` is what it said. It stays until it is retried or
        /// discarded, and the next entries are still sent.
        case refused(reason: String)
    }

    /// Its place in the queue: entries are sent in this order.
    public let sequence: Int64
    /// The identifier of the changed resource on this device (the API's own once it gave one).
    public let localID: String
    /// The HTTP method.
    public let method: HTTPMethod
    /// The resource, relative to the API's base URL, such as `orders/abc123`.
    public let path: String
    /// The JSON body, or `nil`.
    public let body: Data?
    /// Sent as the `Idempotency-Key` header, the same on every attempt, so that the API can tell
    /// a repeat (after a lost answer or a crash) from a new request.
    public let idempotencyKey: String
    /// Waiting, or refused.
    public let state: State
    /// When the change was made.
    public let createdAt: Date

    /// Makes an entry; ``Outbox`` makes them as it reads its table.
    ///
    /// - Parameters:
    ///   - sequence: Its place in the queue.
    ///   - localID: The changed resource's identifier on this device.
    ///   - method: The HTTP method.
    ///   - path: The resource, relative to the API's base URL.
    ///   - body: The JSON body, or `nil`.
    ///   - idempotencyKey: The `Idempotency-Key` header.
    ///   - state: Waiting or refused.
    ///   - createdAt: When the change was made.
    public init(
        sequence: Int64, localID: String, method: HTTPMethod, path: String, body: Data?,
        idempotencyKey: String, state: State, createdAt: Date
    ) {
        self.sequence = sequence
        self.localID = localID
        self.method = method
        self.path = path
        self.body = body
        self.idempotencyKey = idempotencyKey
        self.state = state
        self.createdAt = createdAt
    }

    /// The same entry, refused with `reason`.
    ///
    /// - Parameter reason: What the API said.
    /// - Returns: The refused entry.
    public func refused(_ reason: String) -> OutboxEntry {
        OutboxEntry(
            sequence: sequence, localID: localID, method: method, path: path, body: body,
            idempotencyKey: idempotencyKey, state: .refused(reason: reason), createdAt: createdAt)
    }

    /// Whether the API refused it.
    public var isRefused: Bool {
        if case .refused = state { return true }
        return false
    }
}
