public import Foundation
public import Promises

/// The rule every feature service follows: the API when it answers, the cache when it cannot.
///
/// | situation | the caller gets |
/// | --- | --- |
/// | the API answers 2xx with a body that decodes | the fresh value, source `.network`, after it was written to the cache in one transaction |
/// | as above, but writing the cache fails | the fresh value, source `.network`, with `cacheWriteError` set |
/// | not reachable, no network, cannot connect, unknown host, connection lost, timed out | the cached value, source `.cache(savedAt:reason:)` |
/// | the API answers 5xx | the cached value, source `.cache(savedAt:reason: .httpStatus(5xx))`, so the screen can say the server is failing |
/// | either of the two above with an empty cache | rejected: ``ServiceRequestError/noData`` when offline, ``ServiceRequestError/httpStatus(_:)`` for a 5xx |
/// | the API answers 4xx | rejected with ``ServiceRequestError/httpStatus(_:)``; the cache is not used, it would hide the problem |
/// | the body does not decode | rejected with ``ServiceRequestError/decodingFailed(type:reason:)``; the cache is left as it was |
/// | cancelled | rejected with ``ServiceRequestError/cancelled`` |
/// | the cache cannot be read | rejected with ``ServiceRequestError/storageFailed(reason:)`` |
///
/// Every rejection is a ``ServiceRequestError``.
public struct NetworkFallback<Cache: OfflineCache>: Sendable {
    /// Where the last good answer is kept.
    public let cache: Cache
    private let reachability: any NetworkReachability
    private let now: @Sendable () -> Date

    /// Makes the fallback for one kind of data.
    ///
    /// - Parameters:
    ///   - cache: Where the last good answer is kept.
    ///   - reachability: Whether to try the network at all; by default always.
    ///   - now: The clock that stamps fresh data.
    public init(
        cache: Cache,
        reachability: any NetworkReachability = .assumeReachable,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.cache = cache
        self.reachability = reachability
        self.now = now
    }

    /// Fetches through `request` and caches the answer, or answers from the cache.
    ///
    /// - Parameter request: Asks the API; it is not called when the network is known to be down.
    /// - Returns: A promise of the value and where it came from, or rejected with a
    ///   ``ServiceRequestError``.
    public func fetch(
        _ request: @escaping @Sendable () -> Promise<Cache.Value>
    ) -> Promise<Fetched<Cache.Value>> {
        guard reachability.isReachable else {
            return fromCache(because: .noNetwork)
        }
        let cache = cache
        let now = now
        return firstly(request)
            .then(on: .inline) { value in
                cache.save(value, at: now())
                    .map(on: .inline) { Fetched(value: value, source: .network) }
                    .recover(on: .inline) { error in
                        Guarantee.value(
                            Fetched(
                                value: value, source: .network, cacheWriteError: ServiceRequestError(error)))
                    }
                    .asPromise()
            }
            .recover(on: .inline, policy: .allErrors) { error -> Promise<Fetched<Cache.Value>> in
                let reason = ServiceRequestError(error)
                guard reason.isConnectivityFailure || reason.isServerError else { throw reason }
                return fromCache(because: reason)
            }
    }

    /// The cached value, or a rejection that says why there is nothing to show.
    private func fromCache(because reason: ServiceRequestError) -> Promise<Fetched<Cache.Value>> {
        cache.load()
            .recover(on: .inline, policy: .allErrors) { error -> Promise<Cached<Cache.Value>?> in
                throw ServiceRequestError(error)
            }
            .map(on: .inline) { cached in
                guard let cached else { throw reason.isServerError ? reason : .noData }
                return Fetched(value: cached.value, source: .cache(savedAt: cached.savedAt, reason: reason))
            }
    }
}

extension ServiceRequestError {
    /// Whether the server answered that it is failing (5xx).
    public var isServerError: Bool {
        if case .httpStatus(let status) = self { return (500..<600).contains(status) }
        return false
    }
}
