public import Promises

/// Why a service could not give what was asked: every failure that leaves a service is one of these.
///
/// The first three cases are the ones screens have always shown; the others carry what a caller
/// needs to act (ask to log in again on a 401, offer a retry on a timeout, suggest resetting a
/// broken database).
///
/// More cases may be added in a later version: a `switch` over it needs a `default`.
public enum ServiceRequestError: Error, Equatable, Sendable {
    /// Something failed that fits no other case; there is nothing specific to tell the user.
    case unknownError
    /// The network is not there: not connected, host unreachable or unknown, or the connection was
    /// lost. Services fall back to their cache before reporting this.
    case noNetwork
    /// There is nothing to show: the network gave nothing and the cache is empty.
    case noData
    /// The server answered with a status outside 200-299 (401: log in again, 404: gone, 5xx: the
    /// server is failing, try later).
    case httpStatus(Int)
    /// The response or stored data could not be decoded as `type`; `reason` says what was wrong.
    case decodingFailed(type: String, reason: String)
    /// The request took longer than its timeout.
    case timedOut
    /// The embedded database failed; `reason` names the file and what happened.
    case storageFailed(reason: String)
    /// The request was cancelled; `catch` skips this unless asked for all errors.
    case cancelled
    /// Something other than the API answered: a page that is not the API's (a captive portal's
    /// sign-in page, say), or a redirect to another address. Nothing was delivered; a change waits.
    case notTheAPI
    /// The API answered a write with a redirect to `location` (it moved): the change was not sent
    /// there and waits; the app's API address needs updating.
    case moved(to: String)
    /// A write left, and its answer never came (the connection was lost, or the answer took too
    /// long): the API may have applied it. The change waits under its idempotency key and is sent
    /// again at the next sync, which finds out; nothing is lost or applied twice.
    case answerLost
}

extension ServiceRequestError: CancellableError {
    /// True for ``cancelled``, so that `catch` treats it as a cancellation, not a failure.
    public var isCancelled: Bool {
        self == .cancelled
    }
}

extension ServiceRequestError {
    /// Whether the failure means the server could not be reached (``FailureClass/Kind/offline``).
    public var isConnectivityFailure: Bool {
        FailureClass(self).kind == .offline
    }

    /// Whether the server answered that it is failing (``FailureClass/Kind/serverTrouble``: 5xx).
    public var isServerError: Bool {
        FailureClass(self).kind == .serverTrouble
    }
}
