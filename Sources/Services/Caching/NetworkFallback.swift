public import Foundation
public import Promises

/// The rule every feature service follows: the API when it answers, the cache when it cannot.
/// Which failures show the cache is ``FailureClass/showsSavedCopy``.
///
/// | situation | the caller gets |
/// | --- | --- |
/// | the API answers 2xx with a body that decodes | the fresh value, source `.network`, after it was written to the cache in one transaction |
/// | as above, but writing the cache fails | the fresh value, source `.network`, with `cacheWriteError` set |
/// | not reachable, no network, cannot connect, unknown host, connection lost, timed out | the cached value, source `.cache(savedAt:reason:)` |
/// | the API answers 5xx, or asks to come back later (408, 425, 429) | the cached value, source `.cache(savedAt:reason: .httpStatus(status))`, so the screen can say the server is failing or busy |
/// | either of the two above with an empty cache | rejected: ``ServiceRequestError/noData`` when offline, ``ServiceRequestError/httpStatus(_:)`` otherwise |
/// | the API answers another 4xx | rejected with ``ServiceRequestError/httpStatus(_:)``; the cache is not used, it would hide the problem |
/// | the body does not decode | rejected with ``ServiceRequestError/decodingFailed(type:reason:)``; the cache is left as it was |
/// | cancelled | rejected with ``ServiceRequestError/cancelled`` |
/// | the cache cannot be read | rejected with ``ServiceRequestError/storageFailed(reason:)`` |
///
/// Every rejection is a ``ServiceRequestError``.
public struct NetworkFallback<Cache: OfflineCache>: Sendable {
    /// Where the last good answer is kept.
    public let cache: Cache
    private let reachability: any ConnectivityMonitor
    private let now: @Sendable () -> Date

    /// Makes the fallback for one kind of data.
    ///
    /// - Parameters:
    ///   - cache: Where the last good answer is kept.
    ///   - reachability: Whether to try the network at all; by default always.
    ///   - now: The clock that stamps fresh data.
    public init(
        cache: Cache,
        reachability: any ConnectivityMonitor = .assumeReachable,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.cache = cache
        self.reachability = reachability
        self.now = now
    }

    /// Fetches through `request` and caches the answer, or answers from the cache: the
    /// ``CachePolicy/networkFirst`` rule.
    ///
    /// - Parameter request: Asks the API; it is not called when the network is known to be down.
    /// - Returns: A promise of the value and where it came from, or rejected with a
    ///   ``ServiceRequestError``.
    public func fetch(
        _ request: @escaping @Sendable () -> Promise<Cache.Value>
    ) -> Promise<Fetched<Cache.Value>> {
        fetch(policy: .networkFirst, request)
    }

    /// Reads as `policy` says (see ``CachePolicy``): the network with the cache behind it, the
    /// cache while it is young, the cache at once and the network after, or only one of them.
    ///
    /// - Parameters:
    ///   - policy: How the read uses the cache and the network.
    ///   - showingCopy: With ``CachePolicy/cacheThenNetwork``, given the copy at once (source
    ///     ``DataSource/stored(savedAt:)``), before the request is answered; not called when there
    ///     is no copy, nor for the other policies.
    ///   - request: Asks the API; it is not called when the policy or the network says not to.
    /// - Returns: A promise of the final answer: the fresh value, or the copy and why (for
    ///   ``CachePolicy/cacheThenNetwork``, the copy with the reason the refresh failed); rejected
    ///   with a ``ServiceRequestError`` when there is nothing to show.
    public func fetch(
        policy: CachePolicy,
        showingCopy: @escaping @Sendable (Fetched<Cache.Value>) -> Void = { _ in },
        _ request: @escaping @Sendable () -> Promise<Cache.Value>
    ) -> Promise<Fetched<Cache.Value>> {
        fetch(policy: policy, showingCopy: showingCopy) { _ in
            request().map(on: .inline) { .changed($0, validators: nil) }
        }
    }

    /// Reads as ``fetch(policy:showingCopy:_:)`` does, asking the API only for what changed: the
    /// request is given the validators the copy was saved with (``OfflineCache/validators()``) to
    /// send as a conditional GET (``APIClient/get(_:as:ifChangedSince:headers:)``). A
    /// ``ConditionalGet/notModified`` answer keeps the copy, moves its date on
    /// (``OfflineCache/confirm(at:)``) and is shown as fresh: nothing is decoded or written. A
    /// `304` with no copy to keep (it went meanwhile) is asked again without validators.
    ///
    /// - Parameters:
    ///   - policy: How the read uses the copy and the API.
    ///   - showingCopy: With ``CachePolicy/cacheThenNetwork``, given the copy at once.
    ///   - request: Asks the API, conditionally when given validators.
    /// - Returns: A promise of the final answer, as for ``fetch(policy:showingCopy:_:)``.
    public func fetch(
        policy: CachePolicy,
        showingCopy: @escaping @Sendable (Fetched<Cache.Value>) -> Void = { _ in },
        conditional request: @escaping @Sendable (CacheValidators?) -> Promise<ConditionalGet<Cache.Value>>
    ) -> Promise<Fetched<Cache.Value>> {
        let now = now
        switch policy {
        case .networkFirst:
            return networkFirst(request)
        case .networkOnly:
            guard reachability.isReachable else { return Promise(error: ServiceRequestError.noNetwork) }
            return fresh(request)
        case .cacheOnly:
            return stored().map(on: .inline) { stored in
                guard let stored else { throw ServiceRequestError.noData }
                return stored
            }
        case .cacheFirst(let maxAge):
            let fallback = self
            return stored().then(on: .inline) { stored -> Promise<Fetched<Cache.Value>> in
                if let stored, let savedAt = stored.source.savedAt,
                    DataSource.isYounger(savedAt, than: maxAge, now: now())
                {
                    return .value(stored)
                }
                return fallback.networkFirst(request)
            }
        case .cacheThenNetwork:
            let fallback = self
            return stored().then(on: .inline) { stored -> Promise<Fetched<Cache.Value>> in
                guard let stored, let savedAt = stored.source.savedAt else {
                    return fallback.networkFirst(request)
                }
                showingCopy(stored)
                return fallback.networkFirst(request).recover(on: .inline, policy: .allErrors) {
                    error -> Promise<Fetched<Cache.Value>> in
                    let reason = ServiceRequestError(error)
                    if reason.isCancelled { throw reason }
                    // The refresh failed: the copy stays, with the reason.
                    return .value(
                        Fetched(value: stored.value, source: .cache(savedAt: savedAt, reason: reason)))
                }
            }
        }
    }

    /// The ``CachePolicy/networkFirst`` rule: the API, written through to the cache, or the cache
    /// when the API cannot be reached or is failing.
    private func networkFirst(
        _ request: @escaping @Sendable (CacheValidators?) -> Promise<ConditionalGet<Cache.Value>>
    ) -> Promise<Fetched<Cache.Value>> {
        guard reachability.isReachable else {
            return fromCache(because: .noNetwork)
        }
        let fallback = self
        return fresh(request)
            .recover(on: .inline, policy: .allErrors) { error -> Promise<Fetched<Cache.Value>> in
                let reason = ServiceRequestError(error)
                guard FailureClass(error).showsSavedCopy else { throw reason }
                return fallback.fromCache(because: reason)
            }
    }

    /// The API's answer, saved in the cache in one transaction with its validators; a failed save
    /// is said in ``Fetched/cacheWriteError``, never hidden. Not modified: the copy, confirmed.
    private func fresh(
        _ request: @escaping @Sendable (CacheValidators?) -> Promise<ConditionalGet<Cache.Value>>
    ) -> Promise<Fetched<Cache.Value>> {
        let (cache, now) = (cache, now)
        return cache.validators().recover(on: .inline) { _ in Guarantee.value(nil) }.asPromise()
            .then(on: .inline) { validators in
                request(validators).then(on: .inline) { answer -> Promise<Fetched<Cache.Value>> in
                    switch answer {
                    case .changed(let value, let validators):
                        return Self.saved(value, validators, in: cache, at: now())
                    case .notModified:
                        return cache.confirm(at: now()).then(on: .inline) {
                            confirmed -> Promise<Fetched<Cache.Value>> in
                            if let confirmed {
                                return .value(Fetched(value: confirmed.value, source: .network))
                            }
                            guard validators != nil else {
                                throw APIError.redirected(status: 304, location: "")
                            }
                            // Nothing left to keep: the whole answer, this once.
                            return request(nil).then(on: .inline) { again -> Promise<Fetched<Cache.Value>> in
                                guard case .changed(let value, let validators) = again else {
                                    throw APIError.redirected(status: 304, location: "")
                                }
                                return Self.saved(value, validators, in: cache, at: now())
                            }
                        }
                    }
                }
            }
            .recover(on: .inline, policy: .allErrors) { error -> Promise<Fetched<Cache.Value>> in
                throw ServiceRequestError(error)
            }
    }

    /// `value` saved with its validators, as fresh data.
    private static func saved(
        _ value: Cache.Value, _ validators: CacheValidators?, in cache: Cache, at date: Date
    ) -> Promise<Fetched<Cache.Value>> {
        cache.save(value, at: date, validators: validators)
            .map(on: .inline) { Fetched(value: value, source: .network) }
            .recover(on: .inline) { error in
                Guarantee.value(
                    Fetched(value: value, source: .network, cacheWriteError: ServiceRequestError(error)))
            }
            .asPromise()
    }

    /// The copy as the policy shows it (source ``DataSource/stored(savedAt:)``), or `nil`.
    private func stored() -> Promise<Fetched<Cache.Value>?> {
        cache.load()
            .recover(on: .inline, policy: .allErrors) { error -> Promise<Cached<Cache.Value>?> in
                throw ServiceRequestError(error)
            }
            .map(on: .inline) { cached in
                cached.map { Fetched(value: $0.value, source: .stored(savedAt: $0.savedAt)) }
            }
    }

    /// The cached value, or a rejection that says why there is nothing to show.
    private func fromCache(because reason: ServiceRequestError) -> Promise<Fetched<Cache.Value>> {
        cache.load()
            .recover(on: .inline, policy: .allErrors) { error -> Promise<Cached<Cache.Value>?> in
                throw ServiceRequestError(error)
            }
            .map(on: .inline) { cached in
                guard let cached else { throw FailureClass(reason).kind == .offline ? .noData : reason }
                return Fetched(value: cached.value, source: .cache(savedAt: cached.savedAt, reason: reason))
            }
    }
}
