public import Foundation

/// How a read uses the offline copy and the network: what a screen shows first, and whether it
/// asks the API at all.
///
/// | policy | the screen shows first | then | requests |
/// | --- | --- | --- | --- |
/// | ``networkFirst`` | the API's answer; offline or on a 5xx, the copy | nothing | 1 |
/// | ``cacheFirst(maxAge:)`` | the copy while younger than `maxAge`; else as ``networkFirst`` | nothing | 0 while the copy is young, else 1 |
/// | ``cacheThenNetwork`` | the copy at once, said to be refreshing | the API's answer, or the copy with why it could not be refreshed | 1 |
/// | ``networkOnly`` | the API's answer, or its error | nothing | 1 |
/// | ``cacheOnly`` | the copy, or ``ServiceRequestError/noData`` | nothing | 0 |
///
/// More cases may be added in a later version: a `switch` over it needs a `default`.
public enum CachePolicy: Sendable, Equatable {
    /// The API first; the copy when it cannot be reached or is failing (5xx). The default.
    case networkFirst
    /// The copy while it is younger than `maxAge` seconds, without asking the API; otherwise as
    /// ``networkFirst``.
    case cacheFirst(maxAge: TimeInterval)
    /// The copy at once, then the API's answer when it comes.
    case cacheThenNetwork
    /// The API only: its error when it cannot answer. What it answers is still saved.
    case networkOnly
    /// The copy only: no request.
    case cacheOnly
}
