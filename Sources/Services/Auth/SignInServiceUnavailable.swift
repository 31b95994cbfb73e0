/// The token endpoint was reached and answered that it is failing or busy (a 5xx, a `429`, a
/// `503` with `Retry-After`): the sign-in stands, and the request waits like any request the API
/// asked to make later. Classified by ``FailureClass`` as ``FailureClass/Kind/later``, so that a
/// change waiting in the outbox is not counted as failing for an outage of the sign-in service.
struct SignInServiceUnavailable: Error, Equatable, ServiceRequestErrorConvertible {
    /// The status the token endpoint answered.
    let status: Int
    /// How long it asked to wait, in seconds, if it said.
    let retryAfter: Double?

    /// The status, as the API's own would be.
    var serviceRequestError: ServiceRequestError { .httpStatus(status) }
}
