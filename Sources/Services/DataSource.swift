public import Foundation

/// Where a service's answer came from, so a screen can say it is showing offline data.
public enum DataSource: Sendable, Equatable {
    /// Fresh from the API.
    case network
    /// From the embedded database, saved at `savedAt`, because the API could not give it
    /// (`reason`: ``ServiceRequestError/noNetwork``, ``ServiceRequestError/timedOut``, or a 5xx
    /// ``ServiceRequestError/httpStatus(_:)``).
    case cache(savedAt: Date, reason: ServiceRequestError)
}
