package import Foundation
import Promises

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a failure means for whoever decides what happens next: the one table that the network
/// fallback, the GET retries, the outbox and the features all consult.
///
/// | failure | kind | a read shows the copy | a write is queued | a GET is sent again | the outbox |
/// | --- | --- | --- | --- | --- | --- |
/// | `URLError` not connected, cannot find host, DNS failure, roaming off, data not allowed; ``ServiceRequestError/noNetwork`` | ``Kind/offline`` | yes | yes | no | stops |
/// | `URLError` cannot connect, timed out, connection lost; ``ServiceRequestError/timedOut``, ``ServiceRequestError/answerLost`` | ``Kind/offline`` | yes | yes | yes | stops (a write that left: ``ServiceRequestError/answerLost``) |
/// | HTTP 408, 425, 429 | ``Kind/later`` | yes | no | with `Retry-After` (429) | waits for `Retry-After`, else stops |
/// | HTTP 5xx | ``Kind/serverTrouble`` | yes | no | 502, 503, 504 | counts a failure of the entry |
/// | HTTP 503 with `Retry-After` | ``Kind/later`` | yes | no | yes | waits for `Retry-After` |
/// | the token endpoint answering 5xx, 408, 425 or 429 (the sign-in stands) | ``Kind/later`` | yes | no | with `Retry-After` | waits for `Retry-After`, else stops |
/// | HTTP 412 (``isConflict``: another writer changed it since the version sent in `If-Match`) | ``Kind/refused`` | no | no | no | holds the entry as a conflict with the API's copy, or merges it |
/// | HTTP 404, 410 (``isGone``: the API no longer has it) | ``Kind/refused`` | no | no | no | a DELETE is done; a PUT made from a version is a conflict with a deletion; else refused |
/// | HTTP 400, 422 (``isInvalid``: the content is wrong) | ``Kind/refused`` | no | no | no | refuses the entry, with the API's reason |
/// | any other HTTP 4xx | ``Kind/refused`` | no | no | no | refuses the entry |
/// | a 2xx that is not the API's (a sign-in page), a redirect not followed; ``ServiceRequestError/notTheAPI``, ``ServiceRequestError/moved(to:)`` | ``Kind/offline`` | yes | yes | no | stops, no failure counted |
/// | a cancellation | ``Kind/cancelled`` | no | no | no | stops |
/// | anything else (an answer that does not decode, the database, not HTTP) | ``Kind/other`` | no | no | no | counts a failure of the entry |
///
/// "Later" means the API was reached and asked to be asked again: a `Retry-After` it sent is
/// ``retryAfter`` (in seconds; a date is turned into the seconds until it); without one, whoever
/// retries picks the wait.
///
/// ```swift
/// let failure = FailureClass(error)
/// if failure.showsSavedCopy { return cache.load() }
/// ```
public struct FailureClass: Equatable, Sendable {
    /// The kinds of failure. New kinds may be added in a later version: a `switch` over them
    /// should end in `default`.
    public enum Kind: Equatable, Sendable {
        /// The API could not be reached (or did not answer in time).
        case offline
        /// The API was reached and asked to be asked again later.
        case later
        /// The API answered that it is failing (5xx).
        case serverTrouble
        /// The API answered that the request itself is wrong (4xx); sending it again changes nothing.
        case refused
        /// The API wants a signed-in user (`401`), or nobody is signed in (``AuthenticationError``):
        /// the same request may succeed after a sign-in, so nothing is refused meanwhile.
        case signedOut
        /// The request was cancelled.
        case cancelled
        /// Anything else: an answer that could not be used, a database failure.
        case other
    }

    /// What kind of failure it is.
    public let kind: Kind
    /// The HTTP status the API answered with, if it answered.
    public let status: Int?
    /// How long the API asked to wait, in seconds (`Retry-After`), if it said.
    public let retryAfter: Double?
    /// ``retryAfter`` when it is a wait: one of no time (0, or a date past) asks for none, and is
    /// never taken as "ask again now", which would resend at once, for ever.
    package var waitAsked: Double? { retryAfter.flatMap { $0 > 0 ? $0 : nil } }
    /// Whether the failure may pass on its own within seconds, so that the same GET may succeed
    /// when sent again: a connection that could not be made, timed out or was lost; 502, 503, 504.
    public let passesSoon: Bool
    /// Whether the request certainly never left this device: no connection was made (not
    /// connected, the host not found or refusing connections). A write that failed so did not
    /// reach the API: it is queued as never sent, and later edits merge into it.
    package let neverLeft: Bool
    /// Whether a write that failed so may have reached the API all the same: it left, and the
    /// connection was lost or timed out before the answer came (``ServiceRequestError/answerLost``).
    package var answerMayBeLost: Bool { kind == .offline && passesSoon && !neverLeft }

    /// Classifies any error a request or a service failed with.
    ///
    /// - Parameter error: What failed: a `URLError`, an ``APIError``, a ``ServiceRequestError``, or
    ///   anything else.
    public init(_ error: any Error) {
        switch error {
        case let later as APIClient.RetryLater:
            self = FailureClass(error: later.error, retryAfter: later.retryAfter)
        case let error as APIError:
            self = FailureClass(error: error, retryAfter: nil)
        case let unavailable as SignInServiceUnavailable:
            // The sign-in service's outage: the request itself is not at fault, and waits.
            self = FailureClass(
                kind: .later, status: unavailable.status, retryAfter: unavailable.retryAfter,
                passesSoon: unavailable.retryAfter != nil)
        case is APIClient.ConflictTooLarge:
            self = FailureClass(status: 412, retryAfter: nil)
        case let error as URLError:
            self = FailureClass(urlError: error.code)
        case let error as ServiceRequestError:
            self = FailureClass(serviceError: error)
        case _ where error.isCancellation:
            self = FailureClass(kind: .cancelled)
        default:
            self = FailureClass(serviceError: ServiceRequestError(error))
        }
    }

    /// Whether a read shows the saved copy instead of failing: offline, later, server trouble.
    public var showsSavedCopy: Bool {
        kind == .offline || kind == .later || kind == .serverTrouble
    }

    /// Whether another writer changed the resource since the version a write was made from
    /// (`412 Precondition Failed` to its `If-Match`).
    public var isConflict: Bool { status == 412 }

    /// Whether the API no longer has the resource (`404 Not Found`, `410 Gone`).
    public var isGone: Bool { status == 404 || status == 410 }

    /// Whether the API found the request's content wrong (`400 Bad Request`,
    /// `422 Unprocessable Content`), usually saying which fields.
    public var isInvalid: Bool { status == 400 || status == 422 }

    /// The API's copy a `412` came with (`.some(nil)` when it sent none), or `nil` when `error` is
    /// not a `412`.
    package static func conflictCopy(of error: any Error) -> Data?? {
        let apiError = (error as? APIClient.RetryLater)?.error ?? error
        guard case APIError.httpStatus(let status, let body) = apiError,
            FailureClass(status: status, retryAfter: nil).isConflict
        else { return nil }
        return .some(body.isEmpty ? nil : Data(body.utf8))
    }

    /// Whether a write made online is kept here and queued instead of reported: only when the
    /// API could not be reached (an answer that never came is kept too, under its idempotency key).
    public var queuesWrite: Bool {
        kind == .offline
    }

    private init(
        kind: Kind, status: Int? = nil, retryAfter: Double? = nil, passesSoon: Bool = false,
        neverLeft: Bool = false
    ) {
        self.kind = kind
        self.status = status
        self.retryAfter = retryAfter
        self.passesSoon = passesSoon
        self.neverLeft = neverLeft
    }

    /// The HTTP status table.
    private init(status: Int, retryAfter: Double?) {
        switch status {
        case 408, 425, 429:
            self.init(kind: .later, status: status, retryAfter: retryAfter, passesSoon: retryAfter != nil)
        case 503 where retryAfter != nil:
            self.init(kind: .later, status: status, retryAfter: retryAfter, passesSoon: true)
        case 500..<600:
            self.init(kind: .serverTrouble, status: status, passesSoon: [502, 503, 504].contains(status))
        case 401:
            self.init(kind: .signedOut, status: status)
        case 400..<500:
            self.init(kind: .refused, status: status)
        default:
            self.init(kind: .other, status: status)
        }
    }

    private init(error: APIError, retryAfter: Double?) {
        switch error {
        case .httpStatus(let status, _):
            self.init(status: status, retryAfter: retryAfter)
        case .notTheAPI, .redirected:
            // Something between here and the API answered: the API was not reached.
            self.init(kind: .offline)
        case .decoding, .notHTTP, .responseTooLarge:
            self.init(kind: .other)
        }
    }

    /// The `URLError` table.
    private init(urlError code: URLError.Code) {
        switch code {
        case .notConnectedToInternet, .cannotFindHost, .dnsLookupFailed, .internationalRoamingOff,
            .dataNotAllowed:
            self.init(kind: .offline, neverLeft: true)
        case .cannotConnectToHost:
            self.init(kind: .offline, passesSoon: true, neverLeft: true)
        case .timedOut, .networkConnectionLost:
            self.init(kind: .offline, passesSoon: true)
        case .cancelled:
            self.init(kind: .cancelled)
        default:
            self.init(kind: .other)
        }
    }

    /// A failure already mapped, which keeps only its case.
    private init(serviceError: ServiceRequestError) {
        switch serviceError {
        case .noNetwork:
            self.init(kind: .offline)
        case .timedOut, .answerLost:
            self.init(kind: .offline, passesSoon: true)
        case .httpStatus(let status):
            self.init(status: status, retryAfter: nil)
        case .cancelled:
            self.init(kind: .cancelled)
        case .notTheAPI, .moved:
            self.init(kind: .offline)
        case .unknownError, .noData, .decodingFailed, .storageFailed:
            self.init(kind: .other)
        }
    }
}
