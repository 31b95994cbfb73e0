public import Foundation

/// Where a service's answer came from, so a screen can say it is showing offline data.
///
/// More cases may be added in a later version: a `switch` over it needs a `default`.
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
    /// From the embedded database, which holds nothing from the API yet, because the API could not
    /// be reached: what an `OfflineCollection` the user can add to lists on its first offline
    /// read (this device's own changes, or nothing), instead of failing with
    /// ``ServiceRequestError/noData``.
    case nothingSaved

    /// When the data was saved on the device; `nil` for fresh data, and when nothing was saved.
    public var savedAt: Date? {
        switch self {
        case .network, .nothingSaved: nil
        case .cache(let savedAt, _), .stored(let savedAt): savedAt
        }
    }
}

extension DataSource {
    /// How far in the future a copy's date may be and still count as saved now: dates go through
    /// SQLite as seconds in a `Double`, and come back a few nanoseconds off.
    static var clockTolerance: TimeInterval { 1 }

    /// Whether a copy dated `savedAt` was saved at a time still to come, by `now`: the clock was
    /// set back, or the file came from another device. Such a copy has no age to trust, so every
    /// rule treats it as expired and every notice says so.
    static func isFromTheFuture(_ savedAt: Date, now: Date) -> Bool {
        now.timeIntervalSince(savedAt) < -clockTolerance
    }

    /// Whether a copy dated `savedAt` is younger than `maxAge` by `now`; never one from the future.
    static func isYounger(_ savedAt: Date, than maxAge: TimeInterval, now: Date) -> Bool {
        !isFromTheFuture(savedAt, now: now) && max(0, now.timeIntervalSince(savedAt)) < maxAge
    }
}
