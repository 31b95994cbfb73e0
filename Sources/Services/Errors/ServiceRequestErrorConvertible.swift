/// An error of a feature's own that knows which ``ServiceRequestError`` it stands for, so that
/// ``ServiceRequestError/init(_:)`` and the network fallback understand it (for example a store
/// error that wraps a network failure).
public protocol ServiceRequestErrorConvertible: Error {
    /// The service error this error stands for.
    var serviceRequestError: ServiceRequestError { get }
}
