public import Foundation

/// Where a service's answer came from, so a screen can say it is showing offline data.
public enum DataSource: Sendable, Equatable {
    /// Fresh from the API.
    case network
    /// From the embedded database, saved at `savedAt`, because the API could not give it
    /// (`reason`: ``ServiceRequestError/noNetwork``, ``ServiceRequestError/timedOut``, or a 5xx
    /// ``ServiceRequestError/httpStatus(_:)``).
    case cache(savedAt: Date, reason: ServiceRequestError)
    /// From the embedded database, saved at `savedAt`, because the read's ``CachePolicy`` asked for
    /// the copy (young enough, shown while refreshing, or the copy only), not because the API failed.
    case stored(savedAt: Date)

    /// When the data was saved on the device; `nil` for fresh data.
    public var savedAt: Date? {
        switch self {
        case .network: nil
        case .cache(let savedAt, _), .stored(let savedAt): savedAt
        }
    }
}
